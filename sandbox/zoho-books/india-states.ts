/**
 * Indian states used by the generator: Zoho's 2-letter `place_of_supply` / `place_of_contact` codes, the
 * 2-digit GST state code that prefixes a GSTIN, and a few real city / PIN code pairs for addresses.
 * Written apart from the mapper's table (src/mapping/indian-state.ts) on purpose: the emulator plays the
 * vendor, so a wrong code in the mapper's table is caught by the tests instead of being echoed back.
 */
export interface IndiaState {
  code: string;
  gstCode: string;
  name: string;
  cities: readonly (readonly [city: string, zip: string, phonePrefix: string])[];
}

export const INDIA_STATES: readonly IndiaState[] = [
  {
    code: 'KA',
    gstCode: '29',
    name: 'Karnataka',
    cities: [
      ['Bengaluru', '560058', '+91-80'],
      ['Mysuru', '570016', '+91-821'],
      ['Hubballi', '580030', '+91-836'],
    ],
  },
  {
    code: 'TN',
    gstCode: '33',
    name: 'Tamil Nadu',
    cities: [
      ['Chennai', '600032', '+91-44'],
      ['Coimbatore', '641021', '+91-422'],
    ],
  },
  {
    code: 'MH',
    gstCode: '27',
    name: 'Maharashtra',
    cities: [
      ['Mumbai', '400093', '+91-22'],
      ['Pune', '411057', '+91-20'],
    ],
  },
  { code: 'DL', gstCode: '07', name: 'Delhi', cities: [['New Delhi', '110020', '+91-11']] },
  { code: 'TS', gstCode: '36', name: 'Telangana', cities: [['Hyderabad', '500081', '+91-40']] },
  {
    code: 'GJ',
    gstCode: '24',
    name: 'Gujarat',
    cities: [
      ['Ahmedabad', '380015', '+91-79'],
      ['Surat', '395003', '+91-261'],
    ],
  },
  { code: 'KL', gstCode: '32', name: 'Kerala', cities: [['Kochi', '682030', '+91-484']] },
  {
    code: 'UP',
    gstCode: '09',
    name: 'Uttar Pradesh',
    cities: [
      ['Noida', '201301', '+91-120'],
      ['Lucknow', '226010', '+91-522'],
    ],
  },
  { code: 'WB', gstCode: '19', name: 'West Bengal', cities: [['Kolkata', '700091', '+91-33']] },
  { code: 'HR', gstCode: '06', name: 'Haryana', cities: [['Gurugram', '122002', '+91-124']] },
  { code: 'RJ', gstCode: '08', name: 'Rajasthan', cities: [['Jaipur', '302022', '+91-141']] },
];

export function stateByCode(code: string): IndiaState {
  const state = INDIA_STATES.find((s) => s.code === code);
  if (!state) throw new Error(`unknown state code ${code}`);
  return state;
}

/** Overseas customers: currency and a plausible address. */
export interface OverseasCountry {
  country: string;
  currency: 'USD' | 'EUR';
  cities: readonly (readonly [city: string, state: string, zip: string, phone: string])[];
}

export const OVERSEAS_COUNTRIES: readonly OverseasCountry[] = [
  {
    country: 'U.S.A',
    currency: 'USD',
    cities: [
      ['Austin', 'Texas', '78701', '+1-512-555-0147'],
      ['San Jose', 'California', '95113', '+1-408-555-0199'],
    ],
  },
  { country: 'Germany', currency: 'EUR', cities: [['München', 'Bayern', '80331', '+49-89-5550-1234']] },
  { country: 'France', currency: 'EUR', cities: [['Lyon', 'Auvergne-Rhône-Alpes', '69002', '+33-4-5550-1234']] },
  { country: 'Singapore', currency: 'USD', cities: [['Singapore', 'Singapore', '018989', '+65-6555-0142']] },
];
