export class PlanRuleError extends Error {
  override name = 'PlanRuleError';
}

export class ClientNotFoundError extends Error {
  override name = 'ClientNotFoundError';

  constructor(id: number) {
    super(`No client with id ${id}.`);
  }
}
