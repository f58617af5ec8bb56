import { Transform } from 'class-transformer';

/** Plain digits become a number; anything else (`1.5`, `0x10`, ` 5`, a repeated parameter) is left for the validators to refuse. */
export const ToInteger = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value));
