/** Items the generator draws invoice lines from. */
export interface CatalogItem {
  code: string;
  description: string;
  /** Unit price range in whole currency units. */
  min: number;
  max: number;
  /** Whether fractional quantities make sense (hours). */
  fractional: boolean;
}

export const ITEMS: readonly CatalogItem[] = [
  { code: 'SUB-ANNUAL', description: 'Annual subscription', min: 900, max: 60000, fractional: false },
  { code: 'SUB-MONTH', description: 'Monthly subscription', min: 80, max: 5000, fractional: false },
  { code: 'IMPL-HR', description: 'Implementation hours', min: 40, max: 2500, fractional: true },
  { code: 'SUPPORT', description: 'Premium support', min: 100, max: 9000, fractional: false },
  { code: 'TRAIN', description: 'Training session', min: 150, max: 12000, fractional: false },
  { code: 'HW-KIT', description: 'Sensor hardware kit', min: 35, max: 4000, fractional: false },
];
