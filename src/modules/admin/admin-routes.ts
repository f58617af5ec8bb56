import { RequestMethod } from '@nestjs/common';

/** Where the admin API is served: its own path, outside the public `/v1`. */
export const ADMIN_API_PATH = '/admin/v1';

/** The admin API's routes, left out of the global `/v1` prefix; an unmatched one there gets Nest's 404 or 405. */
export const ADMIN_ROUTES = [{ path: 'admin/v1/{*path}', method: RequestMethod.ALL }];
