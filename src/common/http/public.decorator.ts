import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'auth:isPublic';

/** Opens a route to callers without an API key (health checks, documentation). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
