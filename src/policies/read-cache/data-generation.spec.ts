import { LocalGeneration } from './data-generation.js';

describe('LocalGeneration', () => {
  it("moves a tag on with each of its own writes, and only then, leaving other tags' as they were", async () => {
    const generations = new LocalGeneration();
    const [pets, kennels] = [generations.of('pets'), generations.of('kennels')];
    expect(generations.of('pets')).toBe(pets);
    await generations.bump('pets');
    expect(generations.of('pets')).not.toBe(pets);
    expect(generations.of('kennels')).toBe(kennels);
  });
});
