// A live stack on loopback: the built service (production mode, on a PostgreSQL of its own in a temporary directory,
// REDIS_URL on a port where nothing listens, so its limiter runs degraded; tracing on, every trace
// sampled, exported to a stand-in collector that accepts and drops them) and a real Prometheus, with
// exemplar storage, that scrapes it every second and evaluates deploy/prometheus/alerts.yaml every second.
/* global fetch, AbortSignal */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { freePort, start } from '../../test/contract/processes.mjs';
import { startEmbeddedPostgres } from '../../test/support/embedded-default.mjs';
import { expect, run } from './tools.mjs';

export const JOB = 'pet-adoption-service';
const REQUEST_TIMEOUT_MS = 10_000;
const SCRAPE_GAP_MS = 1_500;
/** Generous bound of the traffic's duration: 7 gaps and 80 requests on loopback. */
const TRAFFIC_SECONDS = 20;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// Well formed, but its checksum is wrong: refused as invalid (401) without touching the database.
const INVALID_KEY = `pets_${'A'.repeat(38)}`;

/** Ports: four consecutive from DEPLOY_CHECK_PORT_BASE when set, else free ones the OS picks. */
async function ports() {
  const base = Number(process.env.DEPLOY_CHECK_PORT_BASE);
  if (base) return { service: base, prometheus: base + 1, deadRedis: base + 2, collector: base + 3 };
  return { service: await freePort(), prometheus: await freePort(), deadRedis: await freePort(), collector: await freePort() };
}

/** An OTLP/HTTP receiver that answers every export with success and counts them: the collector's stand-in. */
function startCollector(port) {
  const collector = { exports: 0 };
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.url === '/v1/traces') collector.exports++;
      response.writeHead(200, { 'Content-Type': request.headers['content-type'] ?? 'application/x-protobuf' }).end();
    });
  });
  server.listen(port, '127.0.0.1');
  // Never keeps the check running: the service, its only client, is stopped at the end.
  server.unref();
  return collector;
}

export async function getJson(url) {
  const response = await fetch(url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  expect(response.ok, `GET ${url} answered ${response.status}`);
  return response.json();
}

export class LiveStack {
  constructor(root, directory) {
    this.root = root;
    this.directory = directory;
  }

  /** Starts the service after creating a free-plan key with the command-line tool. */
  async startService() {
    this.ports = await ports();
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      ALLOWED_HOSTS: '127.0.0.1',
      HOST: '127.0.0.1',
      PORT: String(this.ports.service),
      DATABASE_URL: await startEmbeddedPostgres(this.directory),
      REDIS_URL: `redis://127.0.0.1:${this.ports.deadRedis}`,
      REDIS_COMMAND_TIMEOUT_MS: '100',
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${this.ports.collector}`,
      OTEL_TRACES_SAMPLER: 'always_on',
      OTEL_BSP_SCHEDULE_DELAY: '500',
    };
    this.collector = startCollector(this.ports.collector);
    const created = run(process.execPath, ['dist/src/cli.js', 'keys', 'create', '--plan', 'free', '--name', 'deploy-check', '--json'], {
      cwd: this.root,
      env,
    });
    this.key = JSON.parse(created.slice(created.indexOf('{'))).key;
    await start('service', process.execPath, ['dist/src/main.js'], { cwd: this.root, env, ready: /"msg":"Serving /, timeoutMs: 30_000 });
    this.serviceUrl = `http://127.0.0.1:${this.ports.service}`;
    return (
      `service on ${this.serviceUrl} (NODE_ENV=production, PostgreSQL, Redis unreachable on port ${this.ports.deadRedis}; ` +
      `tracing on, exporting to port ${this.ports.collector})`
    );
  }

  /** One request in a trace the caller started and sampled (traceparent): its id is the exemplar to find. */
  async tracedRequest() {
    const traceId = randomBytes(16).toString('hex');
    const response = await fetch(`${this.serviceUrl}/v1/pets`, {
      headers: { authorization: `Bearer ${this.key}`, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    await response.arrayBuffer();
    expect(response.status === 200, `the traced request answered ${response.status}`);
    return traceId;
  }

  /** The exemplars Prometheus stored for a selector since `since` (ms). */
  async exemplars(selector, since) {
    const query = `query=${encodeURIComponent(selector)}&start=${since / 1_000}&end=${Date.now() / 1_000 + 1}`;
    return (await this.api(`query_exemplars?${query}`)).flatMap(({ seriesLabels, exemplars }) =>
      exemplars.map(({ labels, value }) => ({
        route: seriesLabels.route,
        le: seriesLabels.le,
        traceId: labels.trace_id,
        value: Number(value),
      })),
    );
  }

  /** The metric names the service exports, from its /metrics TYPE lines (histograms with their series). */
  async exportedMetrics() {
    const response = await fetch(`${this.serviceUrl}/metrics`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    expect(response.ok, `/metrics answered ${response.status}`);
    const names = new Set();
    for (const [, name, type] of (await response.text()).matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      const suffixes = type === 'histogram' ? ['_bucket', '_sum', '_count'] : type === 'summary' ? ['', '_sum', '_count'] : [''];
      for (const suffix of suffixes) names.add(name + suffix);
    }
    return names;
  }

  /**
   * 5 requests with the key (200), 5 with an invalid key and 70 without (401, then 429 past the
   * anonymous 60 a minute), in chunks of 10 a scrape and a half apart, so that Prometheus sees the
   * counters grow (rate() counts increases between scrapes, not a series' first value).
   */
  async traffic() {
    const statuses = {};
    const send = async (headers) => {
      const response = await fetch(`${this.serviceUrl}/v1/pets`, { headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    };
    const requests = [
      ...Array.from({ length: 5 }, () => ({ authorization: `Bearer ${this.key}` })),
      ...Array.from({ length: 5 }, () => ({ authorization: `Bearer ${INVALID_KEY}` })),
      ...Array.from({ length: 70 }, () => ({})),
    ];
    // The quota's minute is a fixed UTC minute: start early enough in one that the burst ends in it.
    const startBy = 60 - TRAFFIC_SECONDS;
    const second = new Date().getUTCSeconds();
    if (second > startBy) await sleep((60 - second) * 1_000 + 200);
    for (const [index, headers] of requests.entries()) {
      if (index > 0 && index % 10 === 0) await sleep(SCRAPE_GAP_MS);
      await send(headers);
    }
    return statuses;
  }

  async startPrometheus(rulesFile) {
    const config = join(this.directory, 'prometheus.yml');
    writeFileSync(
      config,
      dump({
        global: { scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1s' },
        rule_files: [rulesFile],
        scrape_configs: [{ job_name: JOB, static_configs: [{ targets: [`127.0.0.1:${this.ports.service}`] }] }],
      }),
    );
    const args = [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(this.directory, 'tsdb')}`,
      `--web.listen-address=127.0.0.1:${this.ports.prometheus}`,
      // Exemplars, which Prometheus takes from OpenMetrics scrapes only.
      '--enable-feature=exemplar-storage',
    ];
    await start('prometheus', 'prometheus', args, {
      cwd: this.directory,
      env: { PATH: process.env.PATH },
      ready: /Server is ready to receive web requests/,
      readyStream: 'stderr',
      timeoutMs: 30_000,
    });
    this.prometheusUrl = `http://127.0.0.1:${this.ports.prometheus}`;
    return `Prometheus on ${this.prometheusUrl}, scraping and evaluating every 1 s, exemplar storage on`;
  }

  async api(path) {
    const body = await getJson(`${this.prometheusUrl}/api/v1/${path}`);
    expect(body.status === 'success', `Prometheus ${path}: ${JSON.stringify(body)}`);
    return body.data;
  }

  /** An instant query's result as `{labels} value` lines. */
  async query(expr) {
    const data = await this.api(`query?query=${encodeURIComponent(expr)}`);
    return data.result.map(({ metric, value }) => ({ metric, value: Number(value[1]) }));
  }
}

export const formatSeries = (series) =>
  series.length === 0
    ? '(no series: the condition does not hold)'
    : series
        .map(
          ({ metric, value }) =>
            `{${Object.entries(metric)
              .map(([k, v]) => `${k}="${v}"`)
              .join(', ')}} ${+value.toFixed(4)}`,
        )
        .join('\n');
