import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { RequiredScope } from '../auth/index.js';
import { apiBaseUrl, ApiErrorResponses, DEFAULT_PAGE_SIZE, locationHeader, nextLinkHeader, setNextLink } from '../../common/index.js';
import type { AppConfig } from '../../platform/config/index.js';
import { Idempotent, IDEMPOTENT_BODY_ERRORS } from '../../policies/idempotency/index.js';
import { V1_OPERATION_ERRORS } from '../../policies/rate-limit/index.js';
import { CachedRead, InvalidatesCachedReads } from '../../policies/read-cache/index.js';
import { ListPetsQueryDto, NewPetDto, PetDto, PetIdParams } from './dto/pet.dto.js';
import { EndpointRemovedException, PetNotFoundException } from './pets.exceptions.js';
import { PETS_TAG } from './pets.openapi.js';
import type { PetRecord } from './pets.repository.js';
import { PetsService } from './pets.service.js';

/** The read cache's tag for what the catalogue's reads show, renewed by a creation. */
const CATALOGUE = 'pets';

function toPetResponse(pet: PetRecord): PetDto {
  return { id: Number(pet.id), name: pet.name, categoryId: Number(pet.categoryId), status: pet.status };
}

@ApiTags(PETS_TAG)
@Controller('pets')
export class PetsController {
  private readonly publicBaseUrl = this.config.getOrThrow<AppConfig>('app').publicBaseUrl;

  constructor(
    private readonly pets: PetsService,
    private readonly config: ConfigService,
  ) {}

  @Get()
  @RequiredScope('pets:read')
  @CachedRead({ tag: CATALOGUE, headers: ['Link'] })
  @ApiOperation({
    summary: 'List all animals',
    description: 'A page of animals in ascending id order, optionally filtered by status; the `Link` header leads to the next page.',
  })
  @ApiOkResponse({
    description: 'A page of animals, in ascending id order.',
    headers: nextLinkHeader,
    schema: { $ref: getSchemaPath('Pets') },
  })
  @ApiErrorResponses(...V1_OPERATION_ERRORS)
  async listPets(
    @Query() query: ListPetsQueryDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<PetDto[]> {
    const page = await this.pets.list(query);
    const next = { limit: query.limit ?? DEFAULT_PAGE_SIZE, status: query.status };
    setNextLink(response, request, this.publicBaseUrl, '/pets', next, page.nextCursor);
    return page.items.map(toPetResponse);
  }

  @Post()
  @RequiredScope('pets:write')
  @Idempotent()
  @InvalidatesCachedReads(CATALOGUE)
  @ApiOperation({
    summary: 'Add an animal',
    description: 'Creates an animal; the service assigns its id. `status` defaults to `available`.',
  })
  @ApiBody({ type: NewPetDto, required: true, examples: { rex: { value: { name: 'Rex', categoryId: 1, status: 'available' } } } })
  @ApiCreatedResponse({
    description: 'The created animal, with its assigned id.',
    type: PetDto,
    headers: locationHeader('URL of the new animal.'),
  })
  @ApiErrorResponses(...V1_OPERATION_ERRORS, ...IDEMPOTENT_BODY_ERRORS)
  async createPet(@Body() body: NewPetDto, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<PetDto> {
    const pet = toPetResponse(await this.pets.create(body));
    response.setHeader('Location', `${apiBaseUrl(request, this.publicBaseUrl)}/pets/${pet.id}`);
    return pet;
  }

  @Get(':petId')
  @RequiredScope('pets:read')
  @CachedRead({ tag: CATALOGUE })
  // PetsOpenApi names the configured sunset in the description.
  @ApiOperation({ summary: 'Get an animal (deprecated)', description: 'Deprecated.', deprecated: true })
  @ApiOkResponse({
    description: 'The animal.',
    type: PetDto,
    headers: {
      Deprecation: {
        description: 'RFC 9745: `@<unix seconds>` at which the operation was deprecated.',
        schema: { type: 'string', pattern: '^@[0-9]+$', maxLength: 21 },
      },
      Sunset: {
        description: 'RFC 8594: the HTTP date on which the operation is removed.',
        schema: {
          type: 'string',
          maxLength: 40,
          pattern: '^[A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$',
        },
      },
      Link: {
        description: 'The successor: `</v1/pets>; rel="successor-version"`.',
        schema: { type: 'string', maxLength: 2048, pattern: '^<[^>]+>; rel="successor-version"$' },
      },
    },
  })
  @ApiErrorResponses(...V1_OPERATION_ERRORS, PetNotFoundException, EndpointRemovedException)
  async getPet(@Param() { petId }: PetIdParams): Promise<PetDto> {
    return toPetResponse(await this.pets.get(petId));
  }
}
