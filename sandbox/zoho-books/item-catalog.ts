import type { IdSequence } from './id-sequence.js';
import type { GstSlab } from './tax-catalog.js';

/** Items (products and services) the generated invoices sell, with HSN/SAC codes and GST slabs. */
export interface ItemDefinition {
  item_id: string;
  name: string;
  descriptions: readonly string[];
  hsn_or_sac: string;
  product_type: 'goods' | 'services';
  unit: string;
  /** Price range in rupees. */
  minRupees: number;
  maxRupees: number;
  slab: GstSlab;
  /** Hours can be billed in halves. */
  fractional: boolean;
}

type ItemSeed = Omit<ItemDefinition, 'item_id'>;

const ITEMS: readonly ItemSeed[] = [
  {
    name: 'Annual SaaS subscription',
    descriptions: ['12-month licence', 'Renewal, 12 months', 'Enterprise tier'],
    hsn_or_sac: '998314',
    product_type: 'services',
    unit: 'Nos',
    minRupees: 12000,
    maxRupees: 250000,
    slab: '18',
    fractional: false,
  },
  {
    name: 'Onboarding services',
    descriptions: ['Remote onboarding (hours)', 'On-site onboarding'],
    hsn_or_sac: '998313',
    product_type: 'services',
    unit: 'hrs',
    minRupees: 1500,
    maxRupees: 4000,
    slab: '18',
    fractional: true,
  },
  {
    name: 'Implementation consulting',
    descriptions: ['Solution design workshop', 'Data migration support'],
    hsn_or_sac: '998311',
    product_type: 'services',
    unit: 'hrs',
    minRupees: 2500,
    maxRupees: 6000,
    slab: '18',
    fractional: true,
  },
  {
    name: 'Support retainer',
    descriptions: ['Monthly support retainer', 'Priority support, quarterly'],
    hsn_or_sac: '998316',
    product_type: 'services',
    unit: 'Nos',
    minRupees: 15000,
    maxRupees: 90000,
    slab: '18',
    fractional: false,
  },
  {
    name: 'Cloud hosting',
    descriptions: ['Managed hosting, monthly', 'Storage add-on (TB)'],
    hsn_or_sac: '998315',
    product_type: 'services',
    unit: 'Nos',
    minRupees: 3000,
    maxRupees: 60000,
    slab: '18',
    fractional: false,
  },
  {
    name: 'Training workshop',
    descriptions: ['Two-day admin training', 'End-user training batch'],
    hsn_or_sac: '999293',
    product_type: 'services',
    unit: 'Nos',
    minRupees: 8000,
    maxRupees: 45000,
    slab: '18',
    fractional: false,
  },
  {
    name: 'Industrial drill bit set',
    descriptions: ['HSS, 19 pcs', 'Carbide tipped, 13 pcs'],
    hsn_or_sac: '8207',
    product_type: 'goods',
    unit: 'pcs',
    minRupees: 450,
    maxRupees: 6500,
    slab: '18',
    fractional: false,
  },
  {
    name: 'Steel fasteners',
    descriptions: ['M8 hex bolts, box of 100', 'M10 nuts, box of 200'],
    hsn_or_sac: '7318',
    product_type: 'goods',
    unit: 'box',
    minRupees: 180,
    maxRupees: 2200,
    slab: '18',
    fractional: false,
  },
  {
    name: 'Laptop',
    descriptions: ['14-inch, 16 GB RAM', '15-inch workstation'],
    hsn_or_sac: '8471',
    product_type: 'goods',
    unit: 'Nos',
    minRupees: 42000,
    maxRupees: 145000,
    slab: '18',
    fractional: false,
  },
  {
    name: 'Corrugated boxes',
    descriptions: ['5-ply, 18x12x12 in', '3-ply mailer'],
    hsn_or_sac: '4819',
    product_type: 'goods',
    unit: 'pcs',
    minRupees: 18,
    maxRupees: 95,
    slab: '12',
    fractional: false,
  },
  {
    name: 'Ayurvedic tonic',
    descriptions: ['200 ml bottle', '450 ml bottle'],
    hsn_or_sac: '3004',
    product_type: 'goods',
    unit: 'pcs',
    minRupees: 120,
    maxRupees: 480,
    slab: '12',
    fractional: false,
  },
  {
    name: 'Packaged tea',
    descriptions: ['Assam CTC, 1 kg', 'Nilgiri leaf, 500 g'],
    hsn_or_sac: '0902',
    product_type: 'goods',
    unit: 'kgs',
    minRupees: 240,
    maxRupees: 900,
    slab: '5',
    fractional: false,
  },
  {
    name: 'Cotton fabric',
    descriptions: ['Plain weave, per metre', 'Poplin, per metre'],
    hsn_or_sac: '5208',
    product_type: 'goods',
    unit: 'mtr',
    minRupees: 85,
    maxRupees: 420,
    slab: '5',
    fractional: false,
  },
  {
    name: 'Split air conditioner',
    descriptions: ['1.5 ton, 5 star', '1 ton inverter'],
    hsn_or_sac: '8415',
    product_type: 'goods',
    unit: 'Nos',
    minRupees: 28000,
    maxRupees: 62000,
    slab: '28',
    fractional: false,
  },
  {
    name: 'Cement',
    descriptions: ['OPC 53 grade, 50 kg bag', 'PPC, 50 kg bag'],
    hsn_or_sac: '2523',
    product_type: 'goods',
    unit: 'bags',
    minRupees: 320,
    maxRupees: 460,
    slab: '28',
    fractional: false,
  },
  {
    name: 'Aerated beverage',
    descriptions: ['Carbonated drink, crate of 24', 'Cola, case of 12 x 1.25 l'],
    hsn_or_sac: '2202',
    product_type: 'goods',
    unit: 'case',
    minRupees: 380,
    maxRupees: 1250,
    slab: '28+cess12',
    fractional: false,
  },
];

export function buildItemCatalog(ids: IdSequence): ItemDefinition[] {
  return ITEMS.map((item) => ({ item_id: ids.take(), ...item }));
}
