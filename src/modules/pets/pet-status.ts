export enum PetStatus {
  Available = 'available',
  Pending = 'pending',
  Sold = 'sold',
}
