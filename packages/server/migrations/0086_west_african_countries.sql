-- Merchants may sell in Benin, Burkina Faso, Mali and Togo too (docs/spec/providers.md, "Countries"),
-- all in XOF. The column's check named the first three countries; it now names the seven.
alter table merchants drop constraint merchants_country_check;
alter table merchants add constraint merchants_country_check check (country in ('CM', 'SN', 'CI', 'BJ', 'BF', 'ML', 'TG'));
