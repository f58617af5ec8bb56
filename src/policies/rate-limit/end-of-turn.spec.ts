import { EndOfTurn } from './in-process.store.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('EndOfTurn', () => {
  it('hands back the values of a turn together, in order, once the turn is over', async () => {
    const answers = new EndOfTurn();
    const settled: number[] = [];
    const values = [1, 2, 3].map((n) => answers.settle(n).then((value) => settled.push(value)));
    await Promise.resolve();
    expect(settled).toEqual([]);
    await Promise.all(values);
    expect(settled).toEqual([1, 2, 3]);
  });

  it('starts a new hand-back for a value given after the last one', async () => {
    const answers = new EndOfTurn();
    await expect(answers.settle('first')).resolves.toBe('first');
    let second: string | undefined;
    void answers.settle('second').then((value) => (second = value));
    expect(second).toBeUndefined();
    await nextTurn();
    expect(second).toBe('second');
  });
});
