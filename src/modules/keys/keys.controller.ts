import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Req, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { RequiredScope } from '../auth/index.js';
import { apiBaseUrl, Caller, ApiErrorResponses, locationHeader, type Principal } from '../../common/index.js';
import { Change, type ChangeContext } from '../audit/index.js';
import type { AppConfig } from '../../platform/config/index.js';
import { Idempotent, IDEMPOTENT_BODY_ERRORS } from '../../policies/idempotency/index.js';
import { V1_OPERATION_ERRORS } from '../../policies/rate-limit/index.js';
import { ApiKeyDto, CreatedApiKeyDto } from './dto/api-key.dto.js';
import { DEFAULT_OVERLAP_SECONDS, KeyIdParams, NewApiKeyDto, RollApiKeyDto } from './dto/key-requests.dto.js';
import { KeyLimitReachedException, KeyNotFoundException } from './keys.exceptions.js';
import { KEYS_TAG } from './keys.openapi.js';
import { KeysService, MAX_LIVE_KEYS } from './keys.service.js';

const created = {
  description: 'The new key, shown this once.',
  type: CreatedApiKeyDto,
  headers: locationHeader('URL of the new key.'),
} as const;

@ApiTags(KEYS_TAG)
@ApiExtraModels(ApiKeyDto)
@RequiredScope('keys:manage')
@Controller('keys')
export class KeysController {
  private readonly publicBaseUrl = this.config.getOrThrow<AppConfig>('app').publicBaseUrl;

  constructor(
    private readonly keys: KeysService,
    private readonly config: ConfigService,
  ) {}

  @Get()
  @ApiOperation({ summary: "The client's keys", description: "Every live key of the caller's client: neither revoked nor expired." })
  @ApiOkResponse({
    description: 'The live keys, in ascending id order.',
    schema: { type: 'array', maxItems: MAX_LIVE_KEYS, items: { $ref: getSchemaPath(ApiKeyDto) } },
  })
  @ApiErrorResponses(...V1_OPERATION_ERRORS)
  listKeys(@Caller() caller: Principal): Promise<ApiKeyDto[]> {
    return this.keys.list(caller);
  }

  @Post()
  @Idempotent({ sealed: true })
  @ApiOperation({
    summary: 'Create a key',
    description: "A new key of the caller's client, with scopes the calling key has. A client has at most 20 live keys.",
  })
  @ApiBody({ type: NewApiKeyDto, required: true, examples: { deploy: { value: { name: 'deploy', scopes: ['pets:read'] } } } })
  @ApiCreatedResponse(created)
  @ApiErrorResponses(...V1_OPERATION_ERRORS, ...IDEMPOTENT_BODY_ERRORS, KeyLimitReachedException)
  async createKey(
    @Caller() caller: Principal,
    @Body() body: NewApiKeyDto,
    @Change() change: ChangeContext,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CreatedApiKeyDto> {
    return this.located(await this.keys.create(caller, body, change), request, response);
  }

  @Post(':keyId/roll')
  @Idempotent({ sealed: true })
  @ApiOperation({
    summary: 'Roll a key',
    description: 'A new key of the same name and scopes; the old one keeps working for `overlapSeconds`, then is refused.',
  })
  @ApiBody({ type: RollApiKeyDto, required: false })
  @ApiCreatedResponse(created)
  @ApiErrorResponses(...V1_OPERATION_ERRORS, ...IDEMPOTENT_BODY_ERRORS, KeyNotFoundException, KeyLimitReachedException)
  async rollKey(
    @Caller() caller: Principal,
    @Param() { keyId }: KeyIdParams,
    @Body() { overlapSeconds = DEFAULT_OVERLAP_SECONDS }: RollApiKeyDto,
    @Change() change: ChangeContext,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CreatedApiKeyDto> {
    return this.located(await this.keys.roll(caller, keyId, overlapSeconds, change), request, response);
  }

  @Delete(':keyId')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Revoke a key', description: 'Every server refuses the key within 5 seconds. A key may revoke itself.' })
  @ApiNoContentResponse({ description: 'Revoked.' })
  @ApiErrorResponses(...V1_OPERATION_ERRORS, KeyNotFoundException)
  async revokeKey(@Caller() caller: Principal, @Param() { keyId }: KeyIdParams, @Change() change: ChangeContext): Promise<void> {
    await this.keys.revoke(caller, keyId, change);
  }

  private located(key: CreatedApiKeyDto, request: Request, response: Response): CreatedApiKeyDto {
    response.setHeader('Location', `${apiBaseUrl(request, this.publicBaseUrl)}/keys/${key.id}`);
    return key;
  }
}
