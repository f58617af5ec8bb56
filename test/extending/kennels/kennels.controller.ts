import { Controller, Get, Param } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AUTHENTICATION_ERRORS } from '../../../src/modules/auth/index.js';
import { ApiErrorResponses, INVALID_REQUEST_ERRORS } from '../../../src/common/index.js';
import { QUOTA_ERRORS } from '../../../src/policies/rate-limit/index.js';
import { KennelIdParams } from './kennel-id.params.js';
import type { KennelsConfig } from './kennels.config.js';
import { KennelNotFoundException } from './kennels.exceptions.js';

@ApiTags('kennels')
@ApiBearerAuth('bearer')
@Controller('kennels')
export class KennelsController {
  private readonly count: number;

  constructor(config: ConfigService) {
    this.count = config.getOrThrow<KennelsConfig>('kennels').count;
  }

  @Get(':kennelId')
  @ApiOperation({ summary: 'Get a kennel' })
  @ApiOkResponse({ description: 'The kennel.', schema: { type: 'object', properties: { id: { type: 'integer' } } } })
  @ApiErrorResponses(...INVALID_REQUEST_ERRORS, ...AUTHENTICATION_ERRORS, KennelNotFoundException, ...QUOTA_ERRORS)
  getKennel(@Param() { kennelId }: KennelIdParams): { id: number } {
    if (kennelId > this.count) throw new KennelNotFoundException(kennelId);
    return { id: kennelId };
  }
}
