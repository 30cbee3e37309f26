import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';
import type { Invitation, InvitationPreview, Role, Session, Team } from '../types.ts';
import { get, useChange } from './client.ts';
import { keys } from './keys.ts';

/** Members and pending invitations. */
export function useTeam() {
  return useQuery({ queryKey: keys.team(), queryFn: () => get<Team>('/team') });
}

/** Every change to the team shows in it and in the audit log. */
const teamChanged = () => [keys.team(), keys.audits()];

export function useInviteMember() {
  return useChange((body: { email: string; role: Role }) => api<Invitation>('POST', '/team/invitations', body), teamChanged);
}

export function useRevokeInvitation() {
  return useChange((id: string) => api('DELETE', `/team/invitations/${encodeURIComponent(id)}`), teamChanged);
}

export function useChangeRole() {
  return useChange(({ id, role }: { id: string; role: Role }) => api('PATCH', `/team/members/${encodeURIComponent(id)}`, { role }), teamChanged);
}

export function useRemoveMember() {
  return useChange((id: string) => api('DELETE', `/team/members/${encodeURIComponent(id)}`), teamChanged);
}

/** Who invites to what, read from the link before signing in. */
export function useInvitation(token: string) {
  return useQuery({ queryKey: keys.invitation(token), queryFn: () => get<InvitationPreview>(`/invitations/${encodeURIComponent(token)}`) });
}

/** Joins the team: the answer is the new member's session (App empties the cache for them). */
export function useAcceptInvitation(token: string) {
  return useMutation({
    mutationFn: (body: { password: string; language: string }) => api<Session>('POST', `/invitations/${encodeURIComponent(token)}/accept`, body),
  });
}
