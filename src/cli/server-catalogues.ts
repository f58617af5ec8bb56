import { serverParts } from '../app.module.js';

/** The server's parts, gathered once from its module list: the scopes and audit actions the tool's arguments may name, its modules' commands. */
export const SERVER_PARTS = serverParts();
export const SCOPE_NAMES = SERVER_PARTS.scopes.map(({ name }) => name);
