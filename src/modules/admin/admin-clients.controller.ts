import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Put, Query, Res, UseInterceptors } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiErrorResponses, PageQueryDto } from '../../common/index.js';
import type { ChangeContext } from '../audit/index.js';
import { ClientsService } from '../plans/index.js';
import { AdminChange } from './admin-change.decorator.js';
import { BODY_ERRORS, EVERY_ADMIN_OPERATION_ERRORS } from './admin-errors.js';
import { ClientNotFoundException } from './admin.exceptions.js';
import { ClientIdParams } from './dto/client-id.params.js';
import { ClientPageDto } from './dto/client-page.dto.js';
import { ClientPlanDto } from './dto/client-plan.dto.js';
import { ClientDto } from './dto/client.dto.js';
import { NewClientDto } from './dto/new-client.dto.js';
import { PlanErrorsInterceptor } from './plan-errors.interceptor.js';
import { ADMIN_API_PATH, LOCATION } from './location.js';

export const CLIENTS_TAG = 'clients';

/** The `clients` commands of the command-line tool, over HTTP, on the same service methods. */
@ApiTags(CLIENTS_TAG)
@UseInterceptors(PlanErrorsInterceptor)
@Controller('admin/v1/clients')
export class AdminClientsController {
  constructor(private readonly clients: ClientsService) {}

  @Post()
  @HttpCode(HttpStatus.CREATED)
  @ApiOperation({ summary: 'Create a client', description: 'On a plan; `enterprise` with its own limits. As `clients create`.' })
  @ApiCreatedResponse({ description: 'The new client.', type: ClientDto, headers: LOCATION })
  @ApiErrorResponses(...EVERY_ADMIN_OPERATION_ERRORS, ...BODY_ERRORS)
  async createClient(
    @Body() { name, plan, perMinute, perDay }: NewClientDto,
    @Res({ passthrough: true }) response: Response,
    @AdminChange() change: ChangeContext,
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
  @ApiErrorResponses(...EVERY_ADMIN_OPERATION_ERRORS, ClientNotFoundException)
  getClient(@Param() { clientId }: ClientIdParams): Promise<ClientDto> {
    return this.clients.get(clientId);
  }

  @Put(':clientId/plan')
  @ApiOperation({
    summary: "Set a client's plan",
    description: 'Every replica enforces it within 5 seconds. As `clients set-plan`.',
  })
  @ApiOkResponse({ description: 'The client on its new plan.', type: ClientDto })
  @ApiErrorResponses(...EVERY_ADMIN_OPERATION_ERRORS, ...BODY_ERRORS, ClientNotFoundException)
  setClientPlan(
    @Param() { clientId }: ClientIdParams,
    @Body() { plan, perMinute, perDay }: ClientPlanDto,
    @AdminChange() change: ChangeContext,
  ): Promise<ClientDto> {
    return this.clients.setPlan(clientId, plan, { perMinute, perDay }, change);
  }
}
