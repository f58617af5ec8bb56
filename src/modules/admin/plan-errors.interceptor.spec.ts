import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { lastValueFrom, throwError } from 'rxjs';
import { ValidationFailedException } from '../../common/index.js';
import { ClientNotFoundError, PlanRuleError } from '../plans/index.js';
import { ClientNotFoundException } from './admin.exceptions.js';
import { PlanErrorsInterceptor } from './plan-errors.interceptor.js';

describe('PlanErrorsInterceptor', () => {
  const refusal = (error: Error) =>
    lastValueFrom(new PlanErrorsInterceptor().intercept({} as ExecutionContext, { handle: () => throwError(() => error) } as CallHandler));

  it('answers a broken plan rule with 400 validation_failed and its message', async () => {
    await expect(refusal(new PlanRuleError('Unknown plan "gold".'))).rejects.toEqual(
      new ValidationFailedException([], 'Unknown plan "gold".'),
    );
  });

  it('answers an unknown client with 404 not_found and the message the CLI prints', async () => {
    const error = await refusal(new ClientNotFoundError(9)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ClientNotFoundException);
    expect((error as ClientNotFoundException).toBody()).toEqual({ code: 'not_found', message: 'No client with id 9.', status: 404 });
  });

  it('lets any other error through to the global filter', async () => {
    const bug = new TypeError('bug');
    await expect(refusal(bug)).rejects.toBe(bug);
  });
});
