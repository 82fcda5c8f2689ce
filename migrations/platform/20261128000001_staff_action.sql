-- The staff audit log: every action a staff member carried out through this service, written in
-- the transaction of the action. Append-only: no role, the owner included, may update, delete or
-- truncate a row.
create table staff_action (
    id uuid primary key,
    staff_id uuid not null,
    staff_username text not null,
    staff_role text not null,
    ip text not null,
    action text not null,
    subject text not null,
    before jsonb,
    after jsonb,
    occurred_at timestamptz not null default clock_timestamp()
);

create index staff_action_newest on staff_action (occurred_at desc, id desc);
create index staff_action_subject on staff_action (subject, occurred_at desc);

create function staff_action_is_append_only() returns trigger language plpgsql as $$
begin
    raise exception 'the staff audit log is append-only';
end
$$;

create trigger staff_action_immutable before update or delete on staff_action
    for each row execute function staff_action_is_append_only();
create trigger staff_action_not_truncated before truncate on staff_action
    for each statement execute function staff_action_is_append_only();
