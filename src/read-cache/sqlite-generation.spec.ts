import type { Request } from 'express';
import { NoGeneration, SqliteGeneration } from './sqlite-generation.js';

const request = {} as Request;

describe('SqliteGeneration', () => {
  it("moves on with this process's writes and with other connections' commits, and only then", async () => {
    let dataVersion = 5;
    const generations = new SqliteGeneration(() => dataVersion);
    const first = generations.of(request);
    expect(generations.of(request)).toBe(first);
    await generations.bump();
    const afterOwnWrite = generations.of(request);
    expect(afterOwnWrite).not.toBe(first);
    dataVersion = 6;
    const afterOtherWrite = generations.of(request);
    expect(afterOtherWrite).not.toBe(afterOwnWrite);
    expect(generations.of(request)).toBe(afterOtherWrite);
  });
});

describe('NoGeneration', () => {
  it('never knows a generation, so every read goes to the database', () => {
    expect(new NoGeneration().of(request)).toBeUndefined();
  });
});
