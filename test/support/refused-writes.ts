import type { DataSource } from 'typeorm';

/**
 * Makes every `operation` on `table` fail with "forced failure", as a full disk or a broken constraint
 * would; resolves with the function that undoes it.
 */
export async function refuseWrites(dataSource: DataSource, operation: 'INSERT' | 'UPDATE', table: string): Promise<() => Promise<void>> {
  const name = `refuse_${operation}_${table}`.toLowerCase();
  await dataSource.query(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'forced failure'; END $$`);
  await dataSource.query(`CREATE TRIGGER ${name} BEFORE ${operation} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`);
  return () => dataSource.query(`DROP TRIGGER ${name} ON ${table}; DROP FUNCTION ${name}()`);
}
