import type { Request } from 'express';
import { LocalGeneration } from './local-generation.js';

describe('LocalGeneration', () => {
  it('moves on with each of its own creations, and only then', async () => {
    const generations = new LocalGeneration();
    const request = {} as Request;
    const first = generations.of(request);
    expect(generations.of(request)).toBe(first);
    await generations.bump();
    expect(generations.of(request)).not.toBe(first);
  });
});
