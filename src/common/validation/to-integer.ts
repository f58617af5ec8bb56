import { Transform } from 'class-transformer';

/**
 * Turns a query or path string of plain digits into a number and leaves anything else
 * (`1.5`, `0x10`, `1e3`, ` 5`, a repeated parameter) as it is, for the validators to refuse.
 */
export const ToInteger = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value));
