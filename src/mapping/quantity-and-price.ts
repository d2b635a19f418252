import { Money, ZERO, type Decimal } from './money.js';

/**
 * The quantity and unit price of a priced line whose vendor left one or both out, derived from the line's
 * amount the way the vendors compute the missing figure: a line with an amount but neither quantity nor
 * price is quantity 1 at that amount (a description with an amount); a missing quantity is amount ÷ price
 * (1 when the price is zero); a missing price is amount ÷ quantity (0 when the quantity is zero). Xero:
 * "If you wish to omit either the Quantity or UnitAmount you can provide a LineAmount and Xero will
 * calculate the missing amount for you"
 * (https://developer.xero.com/documentation/api/accounting/invoices, LineItems). The derived figures are
 * exact decimals; the caller still checks quantity × price against the amount where the vendor states both.
 */
export function quantityAndPrice(input: { amount: Decimal; quantity?: Decimal; unitPrice?: Decimal }): {
  quantity: Decimal;
  unitPrice: Decimal;
} {
  const { amount, quantity, unitPrice } = input;
  if (quantity === undefined && unitPrice === undefined) return { quantity: new Money(1), unitPrice: amount };
  if (quantity === undefined)
    return { quantity: unitPrice!.isZero() ? new Money(1) : amount.div(unitPrice!), unitPrice: unitPrice! };
  if (unitPrice === undefined) return { quantity, unitPrice: quantity.isZero() ? ZERO : amount.div(quantity) };
  return { quantity, unitPrice };
}
