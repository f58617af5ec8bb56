import { fileURLToPath } from 'node:url';
import { Module } from '@nestjs/common';
import { ServeStaticModule } from '@nestjs/serve-static';
import type { Response } from 'express';

/** The console's own policy, stricter than helmet's default (which admits any https: style or font): its files and its API only. */
const CONSOLE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; font-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

// Vite names every file under assets/ after a hash of its content: a new build is new names, so they are cached for good.
function setHeaders(response: Response, path: string): void {
  response.setHeader('Content-Security-Policy', CONSOLE_CSP);
  response.setHeader('Cache-Control', /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
}

/**
 * `/console`, the developer console (docs/console.md): the files `npm run build` makes in dist/console, served after every
 * route of the API, so no /v1 request passes through it. It calls the public API from the page; nothing here reads a key.
 */
@Module({
  imports: [
    ServeStaticModule.forRoot({
      // dist/console beside dist/src, wherever the process was started from.
      rootPath: fileURLToPath(new URL('../../../console', import.meta.url)),
      serveRoot: '/console',
      renderPath: '/',
      serveStaticOptions: { index: false, redirect: false, fallthrough: true, setHeaders },
    }),
  ],
})
export class ConsoleModule {}
