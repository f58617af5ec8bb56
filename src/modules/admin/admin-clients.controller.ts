import { Body, Controller, Get, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiErrorResponses, PageQueryDto } from '../../common/index.js';
import { Change, type ChangeContext } from '../audit/index.js';
import { ClientNotFoundError, ClientsService } from '../plans/index.js';
import { UsageDto, UsageQueryDto, UsageService } from '../usage/index.js';
import { BODY_ERRORS, EVERY_ADMIN_OPERATION_ERRORS } from './admin.exceptions.js';
import { ClientIdParams, ClientPageDto, ClientPlanDto, ClientDto, NewClientDto } from './admin.dto.js';
import { ADMIN_API_PATH, LOCATION } from './location.js';

export const CLIENTS_TAG = 'clients';

/** The `clients` and `usage` commands of the command-line tool, over HTTP, on the same service methods. */
@ApiTags(CLIENTS_TAG)
@Controller('admin/v1/clients')
export class AdminClientsController {
  constructor(
    private readonly clients: ClientsService,
    private readonly usage: UsageService,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create a client', description: 'On a plan; `enterprise` with its own limits. As `clients create`.' })
  @ApiCreatedResponse({ description: 'The new client.', type: ClientDto, headers: LOCATION })
  @ApiErrorResponses(...EVERY_ADMIN_OPERATION_ERRORS, ...BODY_ERRORS)
  async createClient(
    @Body() { name, plan, perMinute, perDay }: NewClientDto,
    @Res({ passthrough: true }) response: Response,
    @Change() change: ChangeContext,
  ): Promise<ClientDto> {
    const client = await this.clients.create(name, plan, { perMinute, perDay }, change);
    response.setHeader('Location', `${ADMIN_API_PATH}/clients/${client.id}`);
    return client;
  }

  @Get()
  @ApiOperation({ summary: 'List clients', description: 'A page at a time, in id order. As `clients list --limit --cursor`.' })
  @ApiOkResponse({ description: 'A page of clients.', type: ClientPageDto })
  @ApiErrorResponses(...EVERY_ADMIN_OPERATION_ERRORS)
  listClients(@Query() page: PageQueryDto): Promise<ClientPageDto> {
    return this.clients.listPage(page);
  }

  @Get(':clientId')
  @ApiOperation({ summary: 'Get a client', description: 'As `clients get`.' })
  @ApiOkResponse({ description: 'The client.', type: ClientDto })
  @ApiErrorResponses(...EVERY_ADMIN_OPERATION_ERRORS, ClientNotFoundError)
  getClient(@Param() { clientId }: ClientIdParams): Promise<ClientDto> {
    return this.clients.get(clientId);
  }

  @Put(':clientId/plan')
  @ApiOperation({
    summary: "Set a client's plan",
    description: 'Every replica enforces it within 5 seconds. As `clients set-plan`.',
  })
  @ApiOkResponse({ description: 'The client on its new plan.', type: ClientDto })
  @ApiErrorResponses(...EVERY_ADMIN_OPERATION_ERRORS, ...BODY_ERRORS, ClientNotFoundError)
  setClientPlan(
    @Param() { clientId }: ClientIdParams,
    @Body() { plan, perMinute, perDay }: ClientPlanDto,
    @Change() change: ChangeContext,
  ): Promise<ClientDto> {
    return this.clients.setPlan(clientId, plan, { perMinute, perDay }, change);
  }

  /** On the same service method as `GET /v1/usage`. */
  @Get(':clientId/usage')
  @ApiOperation({
    summary: "A client's usage",
    description:
      'Per UTC day and key, the requests admitted and those refused with 429 (at most 93 days; the last 30 by default). As `usage --client`.',
  })
  @ApiOkResponse({ description: 'The period, its days and keys, and the totals.', type: UsageDto })
  @ApiErrorResponses(...EVERY_ADMIN_OPERATION_ERRORS, ClientNotFoundError)
  getClientUsage(@Param() { clientId }: ClientIdParams, @Query() period: UsageQueryDto): Promise<UsageDto> {
    return this.usage.forClient(clientId, period);
  }
}
