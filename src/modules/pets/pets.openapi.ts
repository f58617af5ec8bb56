import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { getSchemaPath, type OpenAPIObject } from '@nestjs/swagger';
import { closeSchemas, OpenApiContributor, type OpenApiContribution } from '../../platform/openapi/index.js';
import { MAX_PAGE_SIZE } from '../../common/index.js';
import { PetDto } from './dto/pet.dto.js';
import type { PetsConfig } from './pets.config.js';

export const PETS_TAG = 'pets';

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
    const removedOn = sunset.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    getPet.description = `Deprecated; removed on ${removedOn}. Use \`GET /pets\` with the \`status\` filter.`;
    const ok = getPet.responses['200'] as { headers: Record<string, { schema: { example?: string } }> };
    ok.headers.Sunset.schema.example = sunset.toUTCString();
  }
}
