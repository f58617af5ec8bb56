import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'usual-build:public';

/** Opens a route to callers without a key (the health check). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
