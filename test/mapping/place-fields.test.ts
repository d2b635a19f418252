import { describe, expect, it } from 'vitest';
import { placeFields, ruleFor, withPlacedMeta, type FoundField } from '../../src/mapping/place-fields.js';

/** The one step every vendor mapper places its company-specific fields through. */
const po: FoundField = {
  kind: 'customField',
  names: ['PO Number', 'cf_po', '42'],
  value: 'PO-7',
  default: { metaData: 'cf_po' },
  where: 'custom_fields.0',
};
const region: FoundField = {
  kind: 'reportingTag',
  names: ['Region'],
  value: 'West',
  default: { tag: 'Region' },
  where: 'tags.0',
};

describe('placeFields', () => {
  it('given no rules, then each field goes to its default place', () => {
    const warnings: string[] = [];
    expect(placeFields((m) => warnings.push(m), [po, region], undefined)).toEqual({
      tags: { Region: 'West' },
      metaData: { cf_po: 'PO-7' },
    });
    expect(warnings).toEqual([]);
  });

  it('given a rule naming a field by any of its names, then it moves there and leaves its default place', () => {
    for (const name of ['PO Number', 'cf_po', '42']) {
      const rules = [{ from: { customField: name }, to: { tag: 'po' } }];
      expect(placeFields(() => {}, [po, region], rules)).toEqual({
        tags: { po: 'PO-7', Region: 'West' },
        metaData: {},
      });
    }
  });

  it('given a rule of another kind with the same name, then it does not match', () => {
    expect(ruleFor([{ from: { tracking: 'Region' }, to: { tag: 'r' } }], region)).toBeUndefined();
  });

  it('given a field without a default place, then it is sent only when a rule names it', () => {
    const hidden: FoundField = { ...po, default: undefined };
    expect(placeFields(() => {}, [hidden], [])).toEqual({ tags: {}, metaData: {} });
    expect(placeFields(() => {}, [hidden], [{ from: { customField: '42' }, to: { metaData: 'po' } }]).metaData).toEqual(
      { po: 'PO-7' },
    );
  });

  it('given a key already set by the base or an earlier field, then the first value is kept and the later one warned about', () => {
    const warnings: string[] = [];
    const rules = [{ from: { reportingTag: 'Region' }, to: { metaData: 'sourceSystem' } }];
    const placed = placeFields((m) => warnings.push(m), [region], rules, { metaData: { sourceSystem: 'zoho-books' } });
    expect(placed.metaData).toEqual({ sourceSystem: 'zoho-books' });
    expect(warnings).toEqual(['tags.0 repeats a metaData key (sourceSystem) already set; the first value is kept']);
  });
});

describe('withPlacedMeta', () => {
  it("given placed metaData, then it is added after the mapper's own, never over it", () => {
    const warnings: string[] = [];
    expect(withPlacedMeta((m) => warnings.push(m), { a: 1 }, { a: 2, b: 3 })).toEqual({ a: 1, b: 3 });
    expect(warnings).toHaveLength(1);
  });
});
