import { Clock } from '../../src/common/clock/clock.js';

/** A clock the test moves by hand. */
export class FakeClock extends Clock {
  constructor(private current = new Date('2027-03-01T12:00:00Z')) {
    super();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(instant: Date | string): void {
    this.current = new Date(instant);
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
