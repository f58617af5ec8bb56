import { serverParts } from '../app.module.js';

const parts = serverParts();

/** The server's scopes and audit actions, gathered from its module list: what the tool's arguments may name; and its modules' commands. */
export const SCOPE_NAMES = parts.scopes.map(({ name }) => name);
export const DEFAULT_SCOPE_NAMES = parts.scopes.filter(({ byDefault }) => byDefault).map(({ name }) => name);
export const AUDIT_ACTIONS = parts.auditActions;
export const MODULE_COMMANDS = parts.cliCommands;
