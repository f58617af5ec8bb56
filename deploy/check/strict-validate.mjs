// Offline validation of one Kubernetes object against the API schemas of `kubernetes-models`
// (types, required fields, enums, formats), made strict like `kubectl --validate=strict`: the
// schemas allow unknown fields, so a misspelt `periodSecond` would pass them. The object is
// validated through a Proxy that records every property the generated validator reads; the
// validator reads each property its schema knows (and every entry of a map), so a property it
// never read is unknown to the schema.

/** `apps/v1` + `Deployment` -> kubernetes-models/apps/v1/Deployment; core `v1` + `Service` -> kubernetes-models/v1/Service. */
async function modelClass(apiVersion, kind) {
  const module = await import(`kubernetes-models/${apiVersion}/${kind}`).catch(() => undefined);
  return module?.[kind];
}

/** A proxy of `value` (and, lazily, of everything under it) that records which properties are read. */
function recording(value, read, proxies = new WeakMap()) {
  if (value === null || typeof value !== 'object') return value;
  let proxy = proxies.get(value);
  if (proxy) return proxy;
  const seen = new Set();
  read.set(value, seen);
  proxy = new Proxy(value, {
    get(target, property, receiver) {
      if (typeof property === 'string') seen.add(property);
      return recording(Reflect.get(target, property, receiver), read, proxies);
    },
  });
  proxies.set(value, proxy);
  return proxy;
}

function unknownFields(value, read, path, found) {
  if (value === null || typeof value !== 'object') return found;
  if (Array.isArray(value)) {
    value.forEach((item, index) => unknownFields(item, read, `${path}/${index}`, found));
    return found;
  }
  const seen = read.get(value) ?? new Set();
  for (const [key, child] of Object.entries(value)) {
    if (!seen.has(key)) found.push(`${path}/${key}`);
    else unknownFields(child, read, `${path}/${key}`, found);
  }
  return found;
}

/** The problems of one object (an empty list when it is valid). */
export async function validateObject(object) {
  const { apiVersion, kind } = object ?? {};
  const Model = typeof apiVersion === 'string' && typeof kind === 'string' ? await modelClass(apiVersion, kind) : undefined;
  if (!Model) return [`no Kubernetes schema for apiVersion ${apiVersion} kind ${kind}`];
  const plain = new Model(object).toJSON();
  const read = new WeakMap();
  const problems = [];
  try {
    Model.prototype.validate.call(recording(plain, read));
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
  }
  for (const path of unknownFields(plain, read, '', [])) problems.push(`unknown field ${path}`);
  return problems;
}
