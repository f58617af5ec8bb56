import { LocalGeneration } from './data-generation.js';

describe('LocalGeneration', () => {
  it('moves on with each of its own creations, and only then', async () => {
    const generations = new LocalGeneration();
    const first = generations.of();
    expect(generations.of()).toBe(first);
    await generations.bump();
    expect(generations.of()).not.toBe(first);
  });
});
