/** Availability of an animal (`PetStatus` in the interface). */
export enum PetStatus {
  Available = 'available',
  Pending = 'pending',
  Sold = 'sold',
}
