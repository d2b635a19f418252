/** Names, places and items the generator draws from (fictional). */
export interface Place {
  city: string;
  region: string;
  postalCode: string;
  country: string;
  /** GST state code for Indian places. */
  gstState?: string;
  phoneCountry: string;
  phoneArea: string;
}

export const INDIAN_PLACES: readonly Place[] = [
  { city: 'Bengaluru', region: 'Karnataka', postalCode: '560001', country: 'India', gstState: '29', phoneCountry: '91', phoneArea: '80' },
  { city: 'Mumbai', region: 'Maharashtra', postalCode: '400001', country: 'India', gstState: '27', phoneCountry: '91', phoneArea: '22' },
  { city: 'Chennai', region: 'Tamil Nadu', postalCode: '600001', country: 'India', gstState: '33', phoneCountry: '91', phoneArea: '44' },
  { city: 'New Delhi', region: 'Delhi', postalCode: '110001', country: 'India', gstState: '07', phoneCountry: '91', phoneArea: '11' },
  { city: 'Hyderabad', region: 'Telangana', postalCode: '500001', country: 'India', gstState: '36', phoneCountry: '91', phoneArea: '40' },
  { city: 'Pune', region: 'Maharashtra', postalCode: '411001', country: 'India', gstState: '27', phoneCountry: '91', phoneArea: '20' },
];

export const AUSTRALIAN_PLACES: readonly Place[] = [
  { city: 'Sydney', region: 'NSW', postalCode: '2000', country: 'Australia', phoneCountry: '61', phoneArea: '2' },
  { city: 'Melbourne', region: 'VIC', postalCode: '3000', country: 'Australia', phoneCountry: '61', phoneArea: '3' },
  { city: 'Brisbane', region: 'QLD', postalCode: '4000', country: 'Australia', phoneCountry: '61', phoneArea: '7' },
];

export const FOREIGN_PLACES: readonly Place[] = [
  { city: 'Austin', region: 'TX', postalCode: '73301', country: 'United States', phoneCountry: '1', phoneArea: '512' },
  { city: 'London', region: '', postalCode: 'EC1A 1BB', country: 'United Kingdom', phoneCountry: '44', phoneArea: '20' },
  { city: 'Berlin', region: '', postalCode: '10115', country: 'Germany', phoneCountry: '49', phoneArea: '30' },
  { city: 'Auckland', region: '', postalCode: '1010', country: 'New Zealand', phoneCountry: '64', phoneArea: '9' },
];

export const COMPANY_WORDS = [
  'Bharat',
  'Sahyadri',
  'Kaveri',
  'Meridian',
  'Harbour',
  'Coral',
  'Summit',
  'Lotus',
  'Granite',
  'Northwind',
  'Indus',
  'Banyan',
  'Eucalypt',
  'Pinnacle',
  'Saffron',
];
export const COMPANY_KINDS = ['Tooling', 'Logistics', 'Textiles', 'Analytics', 'Foods', 'Pharma', 'Motors', 'Retail', 'Systems', 'Traders'];
export const FIRST_NAMES = ['Asha', 'Rohan', 'Priya', 'Vikram', 'Meera', 'Liam', 'Olivia', 'Noah', 'Grace', 'Arjun', 'Kavya', 'Jack'];
export const LAST_NAMES = ['Iyer', 'Sharma', 'Reddy', 'Patel', 'Nair', 'Smith', 'Brown', 'Wilson', 'Taylor', 'Menon', 'Rao', 'Clarke'];

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
