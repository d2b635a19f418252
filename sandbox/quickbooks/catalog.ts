/**
 * The sandbox company's reference data: an Indian QBO company in Karnataka, with QBO India-style GST
 * rates (CGST/SGST pairs for intra-state codes, IGST for inter-state, IGST 0 % for exports under LUT),
 * an item list and names for generated customers.
 */
export interface TaxRateDef {
  id: string;
  name: string;
  /** Basis points: 9 % = 900. */
  bp: number;
  agency: { id: string; name: string };
}

export interface TaxCodeDef {
  id: string;
  name: string;
  rateIds: string[];
}

const CGST = { id: '1', name: 'CGST' };
const SGST = { id: '2', name: 'SGST' };
const IGST = { id: '3', name: 'IGST' };

export const TAX_RATES: readonly TaxRateDef[] = [
  { id: '1', name: 'CGST 2.5%', bp: 250, agency: CGST },
  { id: '2', name: 'SGST 2.5%', bp: 250, agency: SGST },
  { id: '3', name: 'IGST 5%', bp: 500, agency: IGST },
  { id: '4', name: 'CGST 6%', bp: 600, agency: CGST },
  { id: '5', name: 'SGST 6%', bp: 600, agency: SGST },
  { id: '6', name: 'IGST 12%', bp: 1200, agency: IGST },
  { id: '7', name: 'CGST 9%', bp: 900, agency: CGST },
  { id: '8', name: 'SGST 9%', bp: 900, agency: SGST },
  { id: '9', name: 'IGST 18%', bp: 1800, agency: IGST },
  { id: '10', name: 'CGST 14%', bp: 1400, agency: CGST },
  { id: '11', name: 'SGST 14%', bp: 1400, agency: SGST },
  { id: '12', name: 'IGST 28%', bp: 2800, agency: IGST },
  { id: '13', name: 'IGST 0% (Export LUT)', bp: 0, agency: IGST },
];

export const TAX_CODES: readonly TaxCodeDef[] = [
  { id: '2', name: 'GST 5%', rateIds: ['1', '2'] },
  { id: '3', name: 'IGST 5%', rateIds: ['3'] },
  { id: '4', name: 'GST 12%', rateIds: ['4', '5'] },
  { id: '5', name: 'IGST 12%', rateIds: ['6'] },
  { id: '6', name: 'GST 18%', rateIds: ['7', '8'] },
  { id: '7', name: 'IGST 18%', rateIds: ['9'] },
  { id: '8', name: 'GST 28%', rateIds: ['10', '11'] },
  { id: '9', name: 'IGST 28%', rateIds: ['12'] },
  { id: '10', name: 'Export (LUT) 0%', rateIds: ['13'] },
];

/** GST rate (bp) → [intra-state code, inter-state code]. */
export const GST_CODES: Readonly<Record<number, readonly [string, string]>> = {
  500: ['2', '3'],
  1200: ['4', '5'],
  1800: ['6', '7'],
  2800: ['8', '9'],
};
export const EXPORT_TAX_CODE = '10';

export function taxRate(id: string): TaxRateDef {
  const r = TAX_RATES.find((t) => t.id === id);
  if (!r) throw new Error(`unknown tax rate ${id}`);
  return r;
}

export function taxCode(id: string): TaxCodeDef {
  const c = TAX_CODES.find((t) => t.id === id);
  if (!c) throw new Error(`unknown tax code ${id}`);
  return c;
}

export interface ItemDef {
  id: string;
  name: string;
  description: string;
  /** Unit price range in rupees (whole or with paise, see generator). */
  price: readonly [number, number];
}

export const ITEMS: readonly ItemDef[] = [
  { id: '21', name: 'Consulting', description: 'Implementation consulting (hours)', price: [1500, 4500] },
  { id: '22', name: 'Annual SaaS subscription', description: 'Annual subscription, per seat', price: [12000, 60000] },
  { id: '23', name: 'Onboarding services', description: 'Onboarding and configuration', price: [2500, 25000] },
  { id: '24', name: 'Support plan', description: 'Premium support, monthly', price: [999, 9999] },
  { id: '25', name: 'Training workshop', description: 'On-site training, per day', price: [8000, 40000] },
  { id: '26', name: 'Hardware kit', description: 'Barcode scanner kit', price: [3499, 18999] },
  { id: '27', name: 'Cloud hosting', description: 'Managed hosting, monthly', price: [4999, 49999] },
  { id: '28', name: 'Data migration', description: 'Legacy data migration', price: [10000, 150000] },
];

/**
 * Classes and departments ("locations" in QBO's UI) the generated transactions are tagged with
 * (ClassRef, DepartmentRef: https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/invoice).
 */
export const CLASSES: ReadonlyArray<{ value: string; name: string }> = [
  { value: '5000000000000030101', name: 'Enterprise' },
  { value: '5000000000000030102', name: 'SMB' },
  { value: '5000000000000030103', name: 'Public sector' },
];
export const DEPARTMENTS: ReadonlyArray<{ value: string; name: string }> = [
  { value: '1', name: 'Bengaluru' },
  { value: '2', name: 'Mumbai' },
];

/**
 * The company's custom fields on sales forms: two legacy string fields (DefinitionId 1 and 2, returned on
 * every read) and three of QBO Advanced's enhanced fields, returned only with
 * `include=enhancedAllCustomFields`
 * (https://developer.intuit.com/app/developer/qbo/docs/workflows/create-custom-fields/get-started).
 */
export const CUSTOM_FIELDS = {
  poNumber: { DefinitionId: '1', Name: 'P.O. Number', Type: 'StringType' },
  salesRep: { DefinitionId: '2', Name: 'Sales Rep', Type: 'StringType' },
  projectCode: { DefinitionId: '1000000001', Name: 'Project code', Type: 'StringType' },
  contractMonths: { DefinitionId: '1000000002', Name: 'Contract months', Type: 'NumberType' },
  renewalDate: { DefinitionId: '1000000003', Name: 'Renewal date', Type: 'DateType' },
} as const;

/** The legacy custom fields: the first three string fields, DefinitionId 1–3. */
export const LEGACY_CUSTOM_FIELD_IDS: ReadonlySet<string> = new Set(['1', '2', '3']);

/**
 * Preferences.SalesFormsPrefs.CustomField as QBO writes it: two groups of name/value pairs, one saying
 * which legacy sales fields are on (`SalesFormsPrefs.UseSalesCustom<n>`), one naming them
 * (`SalesFormsPrefs.SalesCustomName<n>`), n = the DefinitionId
 * (https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/preferences). The
 * third legacy field is off and unnamed; the enhanced fields are not listed there.
 */
export function salesCustomFieldPrefs(): Array<{ CustomField: Array<Record<string, unknown>> }> {
  const legacy = Object.values(CUSTOM_FIELDS).filter((f) => LEGACY_CUSTOM_FIELD_IDS.has(f.DefinitionId));
  const ids = ['1', '2', '3'];
  return [
    {
      CustomField: ids.map((n) => ({
        Name: `SalesFormsPrefs.UseSalesCustom${n}`,
        Type: 'BooleanType',
        BooleanValue: legacy.some((f) => f.DefinitionId === n),
      })),
    },
    {
      CustomField: legacy.map((f) => ({
        Name: `SalesFormsPrefs.SalesCustomName${f.DefinitionId}`,
        Type: 'StringType',
        StringValue: f.Name,
      })),
    },
  ];
}

/**
 * The company CompanyInfo and Preferences describe. The generated data is the Indian company's
 * (COMPANY); another profile (a US company, say) changes what the organisation reads say, so a test can
 * check what a connector takes from them: CompanyInfo.Country and CompanyAddr, and whether customers
 * carry a CurrencyRef (only with multicurrency on:
 * https://developer.intuit.com/app/developer/qbo/docs/api/accounting/all-entities/customer).
 */
export interface QboCompanyProfile {
  name: string;
  /** CompanyInfo.Country as QBO writes it: a two-letter code. */
  country: string;
  address: {
    Id: string;
    Line1: string;
    City: string;
    CountrySubDivisionCode: string;
    PostalCode: string;
    Country: string;
  };
  multiCurrency: boolean;
}

export const COMPANY = {
  name: 'Sahyadri Software Pvt Ltd',
  state: 'KA',
  gstCode: '29',
  address: {
    Id: '1',
    Line1: '12, 3rd Floor, MG Road',
    City: 'Bengaluru',
    CountrySubDivisionCode: 'KA',
    PostalCode: '560001',
    Country: 'IN',
  },
} as const;

export const INDIA_COMPANY: QboCompanyProfile = {
  name: COMPANY.name,
  country: 'IN',
  address: { ...COMPANY.address },
  multiCurrency: true,
};

/** A US company without multicurrency (QBO's default for a new company): customers carry no CurrencyRef. */
export const US_COMPANY: QboCompanyProfile = {
  name: 'Cascade Widgets Inc',
  country: 'US',
  address: {
    Id: '1',
    Line1: '500 Pine Street',
    City: 'Seattle',
    CountrySubDivisionCode: 'WA',
    PostalCode: '98101',
    Country: 'USA',
  },
  multiCurrency: false,
};

/** Indian states customers are in: [code, GST code, city, postal code]. KA is the company's own state. */
export const STATES: ReadonlyArray<readonly [string, string, string, string]> = [
  ['KA', '29', 'Bengaluru', '560038'],
  ['MH', '27', 'Pune', '411026'],
  ['TN', '33', 'Chennai', '600032'],
  ['DL', '07', 'New Delhi', '110020'],
  ['GJ', '24', 'Ahmedabad', '380015'],
  ['TS', '36', 'Hyderabad', '500081'],
  ['UP', '09', 'Noida', '201301'],
  ['WB', '19', 'Kolkata', '700091'],
  ['KL', '32', 'Kochi', '682030'],
  ['HR', '06', 'Gurugram', '122002'],
];

export const INDIAN_COMPANIES = [
  'Bharat Tooling',
  'Kaveri Textiles',
  'Deccan Logistics',
  'Ganga Agro Foods',
  'Sahyadri Motors',
  'Indus Pharma',
  'Narmada Steel',
  'Vindhya Cements',
  'Malabar Spices',
  'Aravalli Infotech',
  'Konkan Marine',
  'Godavari Polymers',
  "Amy's Bird Sanctuary",
  'Nilgiri Tea Estates',
  'Thar Solar',
  'Chola Finance',
] as const;

export const FOREIGN_COMPANIES: ReadonlyArray<readonly [string, string, string, string, string]> = [
  // name, currency, country, state, city
  ['Acme Widgets Inc', 'USD', 'USA', 'CA', 'San Jose'],
  ['Blue Harbor LLC', 'USD', 'USA', 'NY', 'New York'],
  ['Rheinland Maschinen GmbH', 'EUR', 'Germany', 'NW', 'Cologne'],
  ['Lumière Conseil SARL', 'EUR', 'France', 'IDF', 'Paris'],
];

export const FIRST_NAMES = [
  'Asha',
  'Ravi',
  'Meera',
  'Arjun',
  'Kavya',
  'Vikram',
  'Neha',
  'Suresh',
  'Anita',
  'Rahul',
] as const;
export const LAST_NAMES = [
  'Iyer',
  'Sharma',
  'Nair',
  'Reddy',
  'Patel',
  'Gupta',
  'Menon',
  'Rao',
  'Das',
  'Kulkarni',
] as const;
