// ISO 8601 dates of uploaded files (src/upload/iso-date.ts), on their own.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { isoInstant, parseIsoDate } from '../src/upload/iso-date';

const iso = (text: string) => parseIsoDate(text)?.toISOString() ?? null;

describe('parseIsoDate', () => {
  test('a date alone is server-local midnight', () => {
    expect(iso('2025-03-05')).toBe(new Date(2025, 2, 5).toISOString());
  });

  test('server-local means the time zone of the server process (checked in one set to India, UTC+05:30)', () => {
    // A process of its own: the time zone of a running one cannot be changed.
    const script = `const { parseIsoDate } = require(${JSON.stringify(path.join(__dirname, '../src/upload/iso-date.ts'))});
      console.log(JSON.stringify(['2025-03-05', '2025-03-05T10:00', '2025-03-05T10:00Z'].map((t) => parseIsoDate(t).toISOString())));`;
    const output = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], {
      env: { ...process.env, TZ: 'Asia/Kolkata', NODE_OPTIONS: '' },
    });
    expect(JSON.parse(output.toString())).toEqual([
      '2025-03-04T18:30:00.000Z',
      '2025-03-05T04:30:00.000Z',
      '2025-03-05T10:00:00.000Z',
    ]);
  });

  test('a date-time without offset is server-local, with T or a space, minutes, seconds and fractions optional', () => {
    expect(iso('2025-03-05T14:30')).toBe(new Date(2025, 2, 5, 14, 30).toISOString());
    expect(iso('2025-03-05 14:30:15')).toBe(new Date(2025, 2, 5, 14, 30, 15).toISOString());
    expect(iso('2025-03-05T14:30:15.5')).toBe(new Date(2025, 2, 5, 14, 30, 15, 500).toISOString());
    expect(iso('2025-03-05T14:30:15.123456')).toBe(new Date(2025, 2, 5, 14, 30, 15, 123).toISOString());
  });

  test('Z and offsets (±hh:mm, ±hhmm, ±hh) are taken as given', () => {
    expect(iso('2025-03-05T14:30:15Z')).toBe('2025-03-05T14:30:15.000Z');
    expect(iso('2025-03-05t14:30:15.250z')).toBe('2025-03-05T14:30:15.250Z');
    expect(iso('2025-03-05T14:30:15+05:30')).toBe('2025-03-05T09:00:15.000Z');
    expect(iso('2025-03-05T01:00-0200')).toBe('2025-03-05T03:00:00.000Z');
    expect(iso('2025-03-05T01:00+01')).toBe('2025-03-05T00:00:00.000Z');
  });

  test('leap years follow the Gregorian rules', () => {
    expect(iso('2024-02-29T00:00Z')).toBe('2024-02-29T00:00:00.000Z');
    expect(iso('2000-02-29T00:00Z')).toBe('2000-02-29T00:00:00.000Z');
    expect(iso('1900-02-29T00:00Z')).toBeNull();
    expect(iso('2025-02-29')).toBeNull();
  });

  test('years below 100 are not moved to the 1900s', () => {
    expect(iso('0099-12-31T00:00Z')).toBe('0099-12-31T00:00:00.000Z');
    expect(parseIsoDate('0050-06-15')!.getFullYear()).toBe(50);
  });

  test('impossible dates and times are refused', () => {
    for (const text of [
      '2025-02-30',
      '2025-04-31',
      '2025-00-10',
      '2025-13-01',
      '2025-01-00',
      '2025-03-05T24:00',
      '2025-03-05T12:60',
      '2025-03-05T12:00:60',
      '2025-03-05T12:00+24:00',
      '2025-03-05T12:00+05:60',
    ]) {
      expect([text, parseIsoDate(text)]).toEqual([text, null]);
    }
  });

  test('other formats are refused', () => {
    for (const text of [
      '05/03/2025',
      '2025-3-5',
      '20250305',
      '2025-03-05T',
      '2025-03-05T14',
      '2025-03-05 14:30 Z',
      'March 5, 2025',
      '',
    ]) {
      expect([text, parseIsoDate(text)]).toEqual([text, null]);
    }
  });
});

describe('isoInstant', () => {
  test('text already as toISOString writes it is kept as it is', () => {
    for (const text of ['2025-03-05T14:30:15.250Z', '2024-02-29T23:59:59.999Z', '0099-12-31T00:00:00.000Z']) {
      expect(isoInstant(text)).toBe(text);
    }
  });

  test('impossible instants in that form are refused, though Date.parse rolls them over', () => {
    for (const text of ['2025-02-30T00:00:00.000Z', '2025-02-29T10:00:00.000Z', '2025-03-05T24:00:00.000Z']) {
      expect(Number.isNaN(Date.parse(text))).toBe(false);
      expect([text, isoInstant(text)]).toEqual([text, null]);
    }
  });

  test('every other form reads as parseIsoDate reads it', () => {
    for (const text of [
      '2025-03-05',
      '2025-03-05 14:30:15',
      '2025-03-05t14:30:15.250z',
      '2025-03-05T14:30:15+05:30',
      '+002025-03-05T14:30:15.250Z',
      '2025-03-05T14:30:15.2500Z',
      'March 5, 2025',
    ]) {
      expect([text, isoInstant(text)]).toEqual([text, parseIsoDate(text)?.toISOString() ?? null]);
    }
  });
});
