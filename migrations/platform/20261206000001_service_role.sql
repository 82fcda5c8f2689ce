-- Each service's database role reaches its own schema and nothing else (issue 44): a taken pod
-- holds only its service's role, which before was a member of the owner `kid` and so read and
-- wrote every schema (the wallet's ledger from the gateway-facing identity pod, say). The role
-- is named after the schema (deploy/kubernetes/data/postgres.yaml: PgBouncer drops the
-- search_path, and "$user" selects the schema). It may use its schema and read and write the
-- rows of its tables; it owns nothing, creates nothing, and sees no other schema. The tables
-- stay the migration role's (`kid` in production), and so do the tables later migrations
-- create, which the default privileges below give the service's role as they are made.
--
-- Where no role of that name exists (a developer's database, where every service connects as
-- the one owner), there is nobody to grant to and nothing changes.
do $$
declare
    service text := current_schema();
begin
    if exists (select from pg_roles where rolname = service) then
        execute format('grant usage on schema %I to %I', service, service);
        execute format('grant select, insert, update, delete on all tables in schema %I to %I', service, service);
        execute format('grant usage, select, update on all sequences in schema %I to %I', service, service);
        execute format(
            'alter default privileges in schema %I grant select, insert, update, delete on tables to %I',
            service, service);
        execute format(
            'alter default privileges in schema %I grant usage, select, update on sequences to %I',
            service, service);
    end if;
end
$$;
