import { describe, expect, it } from 'vitest';
import { COUNTRIES } from '../../platform/countries.ts';
import { parsePhoneNumberFromString } from 'libphonenumber-js/mobile';
import { lookupNumber, METHOD_NETWORKS, NATIONAL_LENGTH, NUMBERING_PLAN, type Operator, prefixesOf } from './connectors.numbering.ts';

/** A full national number starting with `prefix`, its other digits all `fill`. */
const numberOf = (country: keyof typeof NATIONAL_LENGTH, prefix: string, fill: string) =>
  `+${COUNTRIES[country].callingCode}${prefix}${fill.repeat(NATIONAL_LENGTH[country] - prefix.length)}`;

describe('numbering table', () => {
  it('every number of every listed prefix resolves to that network: no other prefix takes part of its range', () => {
    for (const e of NUMBERING_PLAN) {
      for (const p of e.prefixes) {
        for (const fill of ['0', '5', '9'])
          expect(lookupNumber(numberOf(e.country, p, fill)), `${e.country} ${p}…${fill}`).toEqual({ country: e.country, operator: e.operator });
      }
    }
  });

  it('a prefix fits in its country’s number length, with digits to spare', () => {
    for (const e of NUMBERING_PLAN) for (const p of e.prefixes) expect(p.length, `${e.country} ${p}`).toBeLessThan(NATIONAL_LENGTH[e.country]);
  });

  it("prefixesOf (the browser's copy of the table) agrees with lookupNumber (the server's) on every prefix", () => {
    const operators = [...new Set(NUMBERING_PLAN.map((e) => e.operator))] as Operator[];
    const countries = Object.keys(NATIONAL_LENGTH) as (keyof typeof NATIONAL_LENGTH)[];
    for (const operator of operators) {
      for (const e164 of prefixesOf(operator, countries)) {
        const country = countries.find((c) => e164.startsWith(`+${COUNTRIES[c].callingCode}`));
        expect(country, e164).toBeDefined();
        const national = e164.slice(1 + COUNTRIES[country as keyof typeof NATIONAL_LENGTH].callingCode.length);
        expect(lookupNumber(numberOf(country as keyof typeof NATIONAL_LENGTH, national, '3'))?.operator, e164).toBe(operator);
      }
    }
  });

  it('prefixesOf lists the longest prefixes first and only the countries asked for', () => {
    const mtn = prefixesOf('mtn', ['CM']);
    expect(mtn[0]).toBe('+237650');
    expect(mtn.slice(-1)).toEqual(['+23767']);
    expect(mtn.every((p, i) => i === 0 || (mtn[i - 1] as string).length >= p.length)).toBe(true);
    expect(prefixesOf('mtn', ['CI'])).toEqual(['+22505']);
    expect(prefixesOf('mtn', ['CM', 'CI'])).toContain('+22505');
    expect(prefixesOf('free', ['CM'])).toEqual([]);
  });

  it('a number one digit short or long of its country’s length, or of a calling code not served, is not looked up', () => {
    expect(lookupNumber(numberOf('CI', '07', '1').slice(0, -1))).toBeUndefined();
    expect(lookupNumber(`${numberOf('SN', '77', '1')}1`)).toBeUndefined();
    expect(lookupNumber('+22997123456')).toBeUndefined(); // Benin's former 8 digits: now 10, `01` first
    expect(lookupNumber('+2349012345678')).toBeUndefined(); // Nigeria: not served
    expect(lookupNumber('+237-677-123-456')).toBeUndefined();
  });

  it('West Africa: Benin behind 01 (10 digits since 30 November 2024), Burkina Faso, Mali and Togo in 8 digits', () => {
    expect(lookupNumber('+2290197123456')).toEqual({ country: 'BJ', operator: 'mtn' });
    expect(lookupNumber('+2290195123456')).toEqual({ country: 'BJ', operator: 'moov' });
    expect(lookupNumber('+2290140123456')).toEqual({ country: 'BJ', operator: 'celtiis' });
    expect(lookupNumber('+22670123456')).toEqual({ country: 'BF', operator: 'moov' });
    expect(lookupNumber('+22676123456')).toEqual({ country: 'BF', operator: 'orange' });
    expect(lookupNumber('+22678123456')).toEqual({ country: 'BF', operator: 'telecel' });
    expect(lookupNumber('+22376123456')).toEqual({ country: 'ML', operator: 'orange' });
    expect(lookupNumber('+22366123456')).toEqual({ country: 'ML', operator: 'moov' });
    expect(lookupNumber('+22890123456')).toEqual({ country: 'TG', operator: 'togocom' });
    expect(lookupNumber('+22390123456')).toEqual({ country: 'ML', operator: 'orange' });
    expect(lookupNumber('+22899123456')).toEqual({ country: 'TG', operator: 'moov' });
    expect(prefixesOf('moov', ['TG'])).toEqual(['+22878', '+22879', '+22896', '+22897', '+22898', '+22899']);
  });

  it('every prefix is a mobile range of its country for libphonenumber, which reads the number first', () => {
    for (const e of NUMBERING_PLAN) {
      for (const p of e.prefixes) {
        const e164 = numberOf(e.country, p, '4');
        expect(parsePhoneNumberFromString(e164)?.isValid(), `${e.country} ${p}`).toBe(true);
      }
    }
  });

  it('every method of an operator names a network of the table', () => {
    const networks = new Set(NUMBERING_PLAN.map((e) => e.operator));
    for (const [method, network] of Object.entries(METHOD_NETWORKS)) if (network !== null) expect(networks.has(network), method).toBe(true);
  });
});
