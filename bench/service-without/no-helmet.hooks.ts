/** Module hooks (node:module register): `helmet` becomes a middleware that sets no header. */
const NO_HELMET = 'data:text/javascript,export default () => (_request, _response, next) => next();';

export function resolve(specifier: string, context: object, nextResolve: (specifier: string, context: object) => unknown): unknown {
  return specifier === 'helmet' ? { url: NO_HELMET, shortCircuit: true } : nextResolve(specifier, context);
}
