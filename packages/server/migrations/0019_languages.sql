-- Languages (docs/spec/languages.md): French or English for every text a person reads. Null: not chosen,
-- so the next rule decides (the request's Accept-Language, then the merchant's default, then
-- French).

-- The customer's language, for their SMS and e-mail: set at registration (explicit, else from
-- Accept-Language), changed with PATCH /users/me.
alter table users add column language text check (language in ('fr', 'en'));

-- The merchant's default, for its customers who chose none and whose request named none.
alter table merchants add column language text not null default 'fr' check (language in ('fr', 'en'));

-- The dashboard user's own choice (the language switch of the dashboard).
alter table dashboard_users add column language text check (language in ('fr', 'en'));
