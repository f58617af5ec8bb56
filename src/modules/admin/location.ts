import { locationHeader } from '../../common/index.js';

/** Where the admin API is served on its own port: a path of its own, as the public API's is `/v1`. */
export const ADMIN_API_PATH = '/admin/v1';

/** The `Location` of a 201: the new resource's path on the admin listener. */
export const LOCATION = locationHeader('Path of the new resource.');
