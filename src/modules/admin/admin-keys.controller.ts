import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiErrorResponses, Clock, PageQueryDto } from '../../common/index.js';
import { Change, type ChangeContext } from '../audit/index.js';
import { ApiKeysService } from '../auth/index.js';
import { DEFAULT_OVERLAP_SECONDS, RollApiKeyDto } from '../keys/index.js';
import { ClientNotFoundError, ClientsService } from '../plans/index.js';
import { BODY_ERRORS, EVERY_ADMIN_OPERATION_ERRORS, ClientKeyNotFoundException } from './admin.exceptions.js';
import { ClientIdParams, ClientKeyParams, ClientKeyPageDto, CreatedClientKeyDto, NewClientKeyDto } from './admin.dto.js';
import { ADMIN_API_PATH, LOCATION } from './location.js';

export const KEYS_TAG = 'keys';

const created = { description: 'The new key, shown this once.', type: CreatedClientKeyDto, headers: LOCATION };

/** The `keys` commands of the command-line tool for one client, over HTTP, on the same service methods. */
@ApiTags(KEYS_TAG)
@Controller('admin/v1/clients/:clientId/keys')
export class AdminKeysController {
  constructor(
    private readonly clients: ClientsService,
    private readonly keys: ApiKeysService,
    private readonly clock: Clock,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Create a key',
    description: 'With any scopes and an expiry, without the self-service limit. As `keys create --client`.',
  })
  @ApiCreatedResponse(created)
  @ApiErrorResponses(...EVERY_ADMIN_OPERATION_ERRORS, ...BODY_ERRORS, ClientNotFoundError)
  async createClientKey(
    @Param() { clientId }: ClientIdParams,
    @Body() { name, scopes, expiresInSeconds }: NewClientKeyDto,
    @Res({ passthrough: true }) response: Response,
    @Change() change: ChangeContext,
  ): Promise<CreatedClientKeyDto> {
    const client = await this.clients.get(clientId);
    const expiresAt = expiresInSeconds === undefined ? null : new Date(this.clock.now().getTime() + expiresInSeconds * 1000);
    const issued = await this.keys.issue(clientId, { name, scopes, expiresAt }, change);
    response.setHeader('Location', `${ADMIN_API_PATH}/clients/${clientId}/keys/${issued.apiKey.id}`);
    return { ...issued.apiKey, plan: client.plan, key: issued.key };
  }

  @Get()
  @ApiOperation({ summary: "List a client's keys", description: 'Revoked and expired ones too, in id order. As `keys list --client`.' })
  @ApiOkResponse({ description: 'A page of keys: prefixes, never the keys.', type: ClientKeyPageDto })
  @ApiErrorResponses(...EVERY_ADMIN_OPERATION_ERRORS, ClientNotFoundError)
  async listClientKeys(@Param() { clientId }: ClientIdParams, @Query() page: PageQueryDto): Promise<ClientKeyPageDto> {
    await this.clients.get(clientId);
    return this.keys.listPage(clientId, page);
  }

  @Post(':keyId/roll')
  @ApiOperation({
    summary: 'Roll a key',
    description: 'A new key of the same name and scopes; the old one keeps working for `overlapSeconds`. As `keys roll`.',
  })
  @ApiBody({ type: RollApiKeyDto, required: false })
  @ApiCreatedResponse(created)
  @ApiErrorResponses(...EVERY_ADMIN_OPERATION_ERRORS, ...BODY_ERRORS, ClientNotFoundError, ClientKeyNotFoundException)
  async rollClientKey(
    @Param() { clientId, keyId }: ClientKeyParams,
    @Body() { overlapSeconds = DEFAULT_OVERLAP_SECONDS }: RollApiKeyDto,
    @Res({ passthrough: true }) response: Response,
    @Change() change: ChangeContext,
  ): Promise<CreatedClientKeyDto> {
    const client = await this.clients.get(clientId);
    const rolled = await this.keys.roll(keyId, clientId, overlapSeconds * 1000, change);
    if (rolled === 'not-found') throw new ClientKeyNotFoundException(keyId, clientId, 'live ');
    response.setHeader('Location', `${ADMIN_API_PATH}/clients/${clientId}/keys/${rolled.apiKey.id}`);
    return { ...rolled.apiKey, plan: client.plan, key: rolled.key };
  }

  @Delete(':keyId')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    summary: 'Revoke a key',
    description: 'Every replica refuses it within 5 seconds; revoking it again changes nothing. As `keys revoke`.',
  })
  @ApiNoContentResponse({ description: 'Revoked, now or before.' })
  @ApiErrorResponses(...EVERY_ADMIN_OPERATION_ERRORS, ClientNotFoundError, ClientKeyNotFoundException)
  async revokeClientKey(@Param() { clientId, keyId }: ClientKeyParams, @Change() change: ChangeContext): Promise<void> {
    await this.clients.get(clientId);
    if ((await this.keys.revoke(keyId, change, clientId)) === 'not-found') throw new ClientKeyNotFoundException(keyId, clientId);
  }
}
