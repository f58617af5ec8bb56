import { ToInteger } from '../../../common/index.js';
import { IdField } from './pet-fields.js';

export class PetIdParams {
  @IdField({ description: 'The identifier of the animal to retrieve.' }, 'petId must be an integer')
  @ToInteger()
  petId: number;
}
