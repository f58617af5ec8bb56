/** The fixed page the ceiling serves: 20 animals shaped like the service's `Pet`. */
const STATUSES = ['available', 'pending', 'sold'] as const;

export interface CeilingPet {
  id: number;
  name: string;
  categoryId: number;
  status: (typeof STATUSES)[number];
}

export const PETS: readonly CeilingPet[] = Array.from({ length: 20 }, (_, i) => ({
  id: i + 1,
  name: `Pet ${i + 1}`,
  categoryId: (i % 20) + 1,
  status: STATUSES[i % 3],
}));
