// Reads a V8 .cpuprofile (from `node --cpu-prof`): the top functions by self time and by total
// (inclusive) time, and self time per package.
//
// Each sample counts as one sampling interval (`weight: 'samples'`, the default). The recorded
// time gaps (`weight: 'time'`) are misleading on a loaded machine: a long gap usually means the
// thread was waiting for a CPU, and time weighting blames that wait on whatever ran next (most
// often `writev`, where the kernel switches to the woken load generator). Idle samples are left
// out, so percentages are of the busy time.
import { readFileSync } from 'node:fs';
import { median } from './stats.mjs';

function frameName(frame) {
  const url = frame.url.replace(/^file:\/\//, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  const short = pkg ? `${pkg}/${url.split(`node_modules/${pkg}/`).pop()}` : url.replace(/^.*\/dist\//, 'dist/');
  return `${frame.functionName || '(anonymous)'}${short ? ` ${short}:${frame.lineNumber + 1}` : ''}`;
}

function packageOf(frame) {
  const url = frame.url;
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : '(native, V8)';
  if (url.startsWith('node:')) return 'node core';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  return pkg ?? (url.includes('/dist/') ? 'service (dist)' : url);
}

/**
 * @param {string} file
 * @param {{ top?: number, skipMs?: number, weight?: 'samples' | 'time' }} options
 */
export function summariseProfile(file, { top = 25, skipMs = 0, weight = 'samples' } = {}) {
  /** @type {{ nodes: Array<{ id: number, callFrame: { functionName: string, url: string, lineNumber: number }, children?: number[] }>, samples: number[], timeDeltas: number[], startTime: number, endTime: number }} */
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  // Weighting by samples, each sample counts as the typical sampling interval: the median of the
  // recorded gaps (a profile with no positive gap has no median, NaN: then V8's default, 1000 µs).
  // The same factor scales every sample, so it sets the ms figures and leaves the percentages alone.
  const typical = median(profile.timeDeltas.filter((d) => d > 0)) || 1000;
  const selfUs = new Map();
  let busyUs = 0;
  let idleUs = 0;
  let elapsedUs = 0;
  profile.samples.forEach((id, i) => {
    const gap = profile.timeDeltas[i] ?? 0;
    elapsedUs += gap;
    if (elapsedUs < skipMs * 1000) return;
    const dt = weight === 'time' ? gap : typical;
    if (byId.get(id)?.callFrame.functionName === '(idle)') {
      idleUs += dt;
      return;
    }
    selfUs.set(id, (selfUs.get(id) ?? 0) + dt);
    busyUs += dt;
  });

  const self = new Map();
  const inclusive = new Map();
  const packages = new Map();
  for (const [id, us] of selfUs) {
    const frame = byId.get(id).callFrame;
    const name = frameName(frame);
    self.set(name, (self.get(name) ?? 0) + us);
    const pkg = packageOf(frame);
    packages.set(pkg, (packages.get(pkg) ?? 0) + us);
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const k = frameName(byId.get(at).callFrame);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + us);
    }
  }
  const rank = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: Math.round(us / 1000), pct: Math.round((1000 * us) / busyUs) / 10 }));
  return {
    file,
    weight,
    busyMs: Math.round(busyUs / 1000),
    idleMs: Math.round(idleUs / 1000),
    self: rank(self),
    inclusive: rank(inclusive),
    packages: rank(packages),
  };
}

/** The summary as text lines. */
export function formatProfile(summary) {
  const lines = [`profile ${summary.file}: ${summary.busyMs} ms busy, ${summary.idleMs} ms idle (weighted by ${summary.weight})`];
  const section = (title, rows) => {
    lines.push('', title);
    for (const row of rows) lines.push(`${row.pct.toFixed(1).padStart(6)} %  ${String(row.ms).padStart(7)} ms  ${row.name}`);
  };
  section('Top self time', summary.self);
  section('Top total (inclusive) time', summary.inclusive);
  section('Self time by package', summary.packages);
  return lines.join('\n');
}
