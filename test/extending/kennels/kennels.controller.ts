import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiErrorResponses,
  INVALID_REQUEST_ERRORS,
  PayloadTooLargeException,
  UnsupportedMediaTypeException,
} from '../../../src/common/index.js';
import { AUTHENTICATION_ERRORS } from '../../../src/modules/auth/index.js';
import { QUOTA_ERRORS } from '../../../src/policies/rate-limit/index.js';
import { KennelIdParams } from './kennel-id.params.js';
import type { KennelsConfig } from './kennels.config.js';
import { KennelNotFoundException } from './kennels.exceptions.js';
import { NewKennelDto } from './new-kennel.dto.js';

const kennelSchema = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, places: { type: 'integer' } } };

@ApiTags('kennels')
@ApiBearerAuth('bearer')
@Controller('kennels')
export class KennelsController {
  private readonly count: number;
  private readonly added: Array<NewKennelDto & { id: number }> = [];

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

  @Post()
  @HttpCode(HttpStatus.CREATED)
  @ApiOperation({ summary: 'Add a kennel' })
  @ApiCreatedResponse({ description: 'The new kennel.', schema: kennelSchema })
  @ApiErrorResponses(
    ...INVALID_REQUEST_ERRORS,
    ...AUTHENTICATION_ERRORS,
    PayloadTooLargeException,
    UnsupportedMediaTypeException,
    ...QUOTA_ERRORS,
  )
  createKennel(@Body() kennel: NewKennelDto): NewKennelDto & { id: number } {
    const created = { id: this.count + this.added.length + 1, ...kennel };
    this.added.push(created);
    return created;
  }
}
