import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses, PageQueryDto, PayloadTooLargeException, UnsupportedMediaTypeException } from '../../../src/common/index.js';
import { Change, type ChangeContext } from '../../../src/modules/audit/index.js';
import { RequiredScope } from '../../../src/modules/auth/index.js';
import { IdempotencyConflictException, IdempotencyKeyReusedException, Idempotent } from '../../../src/policies/idempotency/index.js';
import { V1_OPERATION_ERRORS } from '../../../src/policies/rate-limit/index.js';
import { CachedRead, InvalidatesCachedReads } from '../../../src/policies/read-cache/index.js';
import { KennelIdParams } from './dto/kennel-id.params.js';
import { KennelDto, KennelPageDto } from './dto/kennel.dto.js';
import { NewKennelDto } from './dto/new-kennel.dto.js';
import type { Kennel } from './entities/kennel.entity.js';
import { KennelNotFoundException } from './kennels.exceptions.js';
import { KennelsService } from './kennels.service.js';

/** The read cache's tag of what the kennels' reads show. */
const KENNELS = 'kennels';

const toKennelResponse = ({ id, name, places }: Kennel): KennelDto => ({ id: Number(id), name, places });

@ApiTags('kennels')
@Controller('kennels')
export class KennelsController {
  constructor(private readonly kennels: KennelsService) {}

  @Get()
  @RequiredScope('kennels:read')
  @CachedRead({ tag: KENNELS })
  @ApiOperation({ summary: 'List kennels' })
  @ApiOkResponse({ description: 'A page of kennels.', type: KennelPageDto })
  @ApiErrorResponses(...V1_OPERATION_ERRORS)
  async listKennels(@Query() query: PageQueryDto): Promise<KennelPageDto> {
    const { items, nextCursor } = await this.kennels.list(query);
    return { items: items.map(toKennelResponse), nextCursor };
  }

  @Get(':kennelId')
  @RequiredScope('kennels:read')
  @CachedRead({ tag: KENNELS })
  @ApiOperation({ summary: 'Get a kennel' })
  @ApiOkResponse({ description: 'The kennel.', type: KennelDto })
  @ApiErrorResponses(...V1_OPERATION_ERRORS, KennelNotFoundException)
  async getKennel(@Param() { kennelId }: KennelIdParams): Promise<KennelDto> {
    return toKennelResponse(await this.kennels.get(kennelId));
  }

  @Post()
  @RequiredScope('kennels:write')
  @Idempotent()
  @InvalidatesCachedReads(KENNELS)
  @ApiOperation({ summary: 'Add a kennel' })
  @ApiCreatedResponse({ description: 'The new kennel.', type: KennelDto })
  @ApiErrorResponses(
    ...V1_OPERATION_ERRORS,
    IdempotencyConflictException,
    PayloadTooLargeException,
    UnsupportedMediaTypeException,
    IdempotencyKeyReusedException,
  )
  async createKennel(@Body() body: NewKennelDto, @Change() change: ChangeContext): Promise<KennelDto> {
    return toKennelResponse(await this.kennels.create(body, change));
  }
}
