import type { IdSequence } from './id-sequence.js';

/**
 * The organisation's GST taxes as `GET /settings/taxes` lists them. Intra-state supplies use a tax group
 * (GST18 = CGST9 + SGST9); inter-state supplies use a single IGST tax; cess rides on top of 28% goods.
 * Consumers classify components by `tax_specific_type`, never by parsing the org-defined names.
 * https://www.zoho.com/books/api/v3/taxes/#list-taxes
 */
export type TaxSpecificType = 'cgst' | 'sgst' | 'igst' | 'cess';
export type GstSlab = '5' | '12' | '18' | '28' | '28+cess12';

export interface TaxDefinition {
  tax_id: string;
  tax_name: string;
  /** Percent as Zoho prints it (2.5, 18). */
  tax_percentage: number;
  /** Same percent in basis points, for integer arithmetic. */
  basisPoints: number;
  tax_type: 'tax' | 'tax_group';
  /** Empty for groups: a group is resolved through its components. */
  tax_specific_type: TaxSpecificType | '';
  /** Component tax ids (a plain tax is its own single component). */
  components: string[];
}

interface TaxSeed {
  name: string;
  basisPoints: number;
  type: TaxSpecificType;
}

const COMPONENTS: readonly TaxSeed[] = [
  { name: 'CGST2.5', basisPoints: 250, type: 'cgst' },
  { name: 'SGST2.5', basisPoints: 250, type: 'sgst' },
  { name: 'CGST6', basisPoints: 600, type: 'cgst' },
  { name: 'SGST6', basisPoints: 600, type: 'sgst' },
  { name: 'CGST9', basisPoints: 900, type: 'cgst' },
  { name: 'SGST9', basisPoints: 900, type: 'sgst' },
  { name: 'CGST14', basisPoints: 1400, type: 'cgst' },
  { name: 'SGST14', basisPoints: 1400, type: 'sgst' },
  { name: 'IGST5', basisPoints: 500, type: 'igst' },
  { name: 'IGST12', basisPoints: 1200, type: 'igst' },
  { name: 'IGST18', basisPoints: 1800, type: 'igst' },
  { name: 'IGST28', basisPoints: 2800, type: 'igst' },
  { name: 'Cess12', basisPoints: 1200, type: 'cess' },
];

const GROUPS: readonly (readonly [name: string, components: readonly string[]])[] = [
  ['GST5', ['CGST2.5', 'SGST2.5']],
  ['GST12', ['CGST6', 'SGST6']],
  ['GST18', ['CGST9', 'SGST9']],
  ['GST28', ['CGST14', 'SGST14']],
  ['GST28+Cess12', ['CGST14', 'SGST14', 'Cess12']],
  ['IGST28+Cess12', ['IGST28', 'Cess12']],
];

/** Which tax (group) a supply of a given slab uses, intra-state vs inter-state. */
const SUPPLY: Record<GstSlab, readonly [intra: string, inter: string]> = {
  '5': ['GST5', 'IGST5'],
  '12': ['GST12', 'IGST12'],
  '18': ['GST18', 'IGST18'],
  '28': ['GST28', 'IGST28'],
  '28+cess12': ['GST28+Cess12', 'IGST28+Cess12'],
};

export class TaxCatalog {
  readonly all: TaxDefinition[] = [];
  private readonly byIdMap = new Map<string, TaxDefinition>();
  private readonly byNameMap = new Map<string, TaxDefinition>();

  constructor(ids: IdSequence) {
    for (const c of COMPONENTS) {
      const id = ids.take();
      this.add({
        tax_id: id,
        tax_name: c.name,
        tax_percentage: c.basisPoints / 100,
        basisPoints: c.basisPoints,
        tax_type: 'tax',
        tax_specific_type: c.type,
        components: [id],
      });
    }
    for (const [name, parts] of GROUPS) {
      const components = parts.map((p) => this.byName(p));
      const basisPoints = components.reduce((s, c) => s + c.basisPoints, 0);
      this.add({
        tax_id: ids.take(),
        tax_name: name,
        tax_percentage: basisPoints / 100,
        basisPoints,
        tax_type: 'tax_group',
        tax_specific_type: '',
        components: components.map((c) => c.tax_id),
      });
    }
  }

  byId(id: string): TaxDefinition | undefined {
    return this.byIdMap.get(id);
  }

  byName(name: string): TaxDefinition {
    const tax = this.byNameMap.get(name);
    if (!tax) throw new Error(`unknown tax ${name}`);
    return tax;
  }

  /** The components a line's `tax_id` expands to (empty for an untaxed line). */
  componentsOf(taxId: string): TaxDefinition[] {
    if (taxId === '') return [];
    const tax = this.byIdMap.get(taxId);
    if (!tax) throw new Error(`unknown tax id ${taxId}`);
    return tax.components.map((id) => this.byIdMap.get(id)).filter((t): t is TaxDefinition => t !== undefined);
  }

  forSupply(slab: GstSlab, intraState: boolean): TaxDefinition {
    const [intra, inter] = SUPPLY[slab];
    return this.byName(intraState ? intra : inter);
  }

  private add(tax: TaxDefinition): void {
    this.all.push(tax);
    this.byIdMap.set(tax.tax_id, tax);
    this.byNameMap.set(tax.tax_name, tax);
  }
}
