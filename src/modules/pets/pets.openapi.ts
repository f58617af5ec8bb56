import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { getSchemaPath, type OpenAPIObject } from '@nestjs/swagger';
import { closeSchemas, OpenApiContributor, type OpenApiContribution } from '../../platform/openapi/index.js';
import { MAX_PAGE_SIZE } from '../../common/index.js';
import { PetDto } from './dto/pet.dto.js';
import type { PetsConfig } from './pets.config.js';

export const PETS_TAG = 'pets';

export const getPetDescription = (sunset: Date) =>
  `Deprecated; removed on ${sunset.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })}. Use \`GET /pets\` with the \`status\` filter.`;

/** The tag, the named `Pets` array, closed schemas, and getPet's sunset as configured. */
@OpenApiContributor()
@Injectable()
export class PetsOpenApi implements OpenApiContribution {
  constructor(private readonly config: ConfigService) {}

  contribute(document: OpenAPIObject): void {
    const sunset = this.config.getOrThrow<PetsConfig>('pets').getPetSunset;
    document.tags = [...(document.tags ?? []), { name: PETS_TAG, description: 'Animals available for adoption' }];
    document.components!.schemas!.Pets = { type: 'array', maxItems: MAX_PAGE_SIZE, items: { $ref: getSchemaPath(PetDto) } };
    closeSchemas(document, ['Pet', 'NewPet']);
    const getPet = document.paths['/pets/{petId}'].get!;
    getPet.description = getPetDescription(sunset);
    const ok = getPet.responses['200'] as { headers: Record<string, { schema: { example?: string } }> };
    ok.headers.Sunset.schema.example = sunset.toUTCString();
  }
}
