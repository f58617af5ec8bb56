/** The time source of the service, injected so tests can move it. */
export abstract class Clock {
  abstract now(): Date;
}
