/**
 * Name pools for generated contacts (fictional): plausible Indian and overseas businesses and people.
 * Generators pick from them with a seeded random, so a pool's order is part of what a seed produces:
 * append, do not reorder.
 */
export const COMPANY_FIRST = [
  'Bharat',
  'Kaveri',
  'Nilgiri',
  'Sahyadri',
  'Deccan',
  'Ganga',
  'Indus',
  'Vindhya',
  'Konkan',
  'Malabar',
  'Aravali',
  'Narmada',
  'Coromandel',
  'Himalaya',
  'Tungabhadra',
  'Godavari',
  'Sindhu',
  'Brahmaputra',
] as const;
export const COMPANY_SECOND = [
  'Tooling',
  'Foods',
  'Textiles',
  'Logistics',
  'Pharma',
  'Infotech',
  'Polymers',
  'Motors',
  'Agro',
  'Analytics',
  'Hospitality',
  'Engineering',
  'Retail',
  'Packaging',
  'Electricals',
  'Castings',
] as const;
export const COMPANY_SUFFIX = ['Pvt Ltd', 'LLP', 'Ltd', '& Co', 'Private Limited', 'Industries'] as const;

export const OVERSEAS_COMPANIES = [
  'Acme Analytics Inc',
  'Rhein Maschinenbau GmbH',
  'Lumière Design SARL',
  'Northwind Traders LLC',
  'Blue Harbor Systems Pte Ltd',
  'Contoso Robotics Inc',
  'Fabrikam Medical GmbH',
  'Tailspin Logistics SAS',
] as const;

export const FIRST_NAMES = [
  'Ananya',
  'Vikram',
  'Priya',
  'Rahul',
  'Kavya',
  'Arjun',
  'Meera',
  'Siddharth',
  'Lakshmi',
  'Rohan',
  'Divya',
  'Karthik',
  'Nisha',
  'Aditya',
  'Shreya',
  'Manoj',
  'Farah',
  'Joseph',
  'Gurpreet',
  'Tenzin',
] as const;
export const LAST_NAMES = [
  'Rao',
  'Shetty',
  'Nair',
  'Iyer',
  'Sharma',
  'Gupta',
  'Menon',
  'Reddy',
  'Patel',
  'Kulkarni',
  'Das',
  'Banerjee',
  'Singh',
  'Khan',
  'Fernandes',
  'Hegde',
  'Joshi',
  'Pillai',
] as const;
export const OVERSEAS_FIRST = ['Emma', 'Lukas', 'Chloé', 'Michael', 'Wei Ling', 'Sofia', 'Daniel', 'Hannah'] as const;
export const OVERSEAS_LAST = ['Schmidt', 'Martin', 'Johnson', 'Tan', 'Müller', 'Dubois', 'Brown', 'Lim'] as const;

export const STREETS = [
  '3rd Cross, Peenya Industrial Area',
  'MG Road',
  'Residency Road',
  'Anna Salai',
  'Linking Road',
  'Park Street',
  'Ring Road',
  'Hosur Road',
  'SV Road',
  'Nehru Place',
  'Banjara Hills Road No. 2',
  'Sector 62',
] as const;
export const AREAS = [
  'Phase II',
  'Near Metro Station',
  'Industrial Estate',
  'Tech Park',
  '2nd Floor',
  'Block B',
  'Opp. Bus Depot',
  '',
] as const;
export const DESIGNATIONS = [
  'Accounts Manager',
  'Finance Controller',
  'Procurement Lead',
  'Director',
  'Accounts Executive',
  'CFO',
] as const;
export const DEPARTMENTS = ['Finance', 'Accounts', 'Procurement', 'Management'] as const;
export const SALESPEOPLE = ['', '', 'Ananya Rao', 'Vikram Shetty', 'Meera Iyer'] as const;
export const CREDIT_REASONS = [
  'Goods returned',
  'Pricing correction',
  'Service credit for downtime',
  'Duplicate billing',
  'Damaged in transit',
] as const;

/** Short pools for organisations in India and Australia (Indian and English names mixed). */
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
export const COMPANY_KINDS = [
  'Tooling',
  'Logistics',
  'Textiles',
  'Analytics',
  'Foods',
  'Pharma',
  'Motors',
  'Retail',
  'Systems',
  'Traders',
];
export const MIXED_FIRST_NAMES = [
  'Asha',
  'Rohan',
  'Priya',
  'Vikram',
  'Meera',
  'Liam',
  'Olivia',
  'Noah',
  'Grace',
  'Arjun',
  'Kavya',
  'Jack',
];
export const MIXED_LAST_NAMES = [
  'Iyer',
  'Sharma',
  'Reddy',
  'Patel',
  'Nair',
  'Smith',
  'Brown',
  'Wilson',
  'Taylor',
  'Menon',
  'Rao',
  'Clarke',
];
