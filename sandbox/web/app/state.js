/**
 * What the page knows (`known`: users, bots, chats) and shows (`view`: who, where, drafts), with the
 * questions asked of them: names, who is in which chat, who may post or delete. The choice of user and
 * chat is kept in the address and in localStorage.
 */

export const known = {
	users: new Map(),
	bots: new Map(),
	chats: new Map(),
};

export const view = {
	userId: null,
	chatId: null,
	/** Messages of the open chat, oldest first (Map keeps insertion order; new ones arrive last). */
	messages: new Map(),
	replyTo: null,
	editing: null,
	/** The user hid the chat keypad with the toggle. */
	keypadHidden: false,
	/** A one-time chat keypad that was just tapped stays hidden until the server's answer arrives. */
	keypadSpent: null,
	unread: new Map(),
	suggestions: { items: [], index: -1 },
	/** Inline taps waiting for their delivery event: message id + button id → true. */
	pendingTaps: new Set(),
	loadSeq: 0,
};

export const currentChat = () => known.chats.get(view.chatId);

export function userName(id) {
	const user = known.users.get(id);
	if (user) return [user.first_name, user.last_name].filter(Boolean).join(' ');
	const bot = known.bots.get(id);
	if (bot) return bot.bot_title;
	const chat = known.chats.get(id);
	if (chat && chat.title) return chat.title;
	return id ? id.slice(0, 8) + '…' : 'Unknown';
}

export function chatTitle(chat) {
	if (!chat) return '';
	if (chat.type === 'Private') return userName(view.userId === chat.user_id ? chat.bot_id : chat.user_id);
	return chat.title || chat.chat_id;
}

export function roleIn(chat, userId) {
	const member = chat.members.find((candidate) => candidate.id === userId);
	return member ? member.role : null;
}

/** Chats the chosen user takes part in: their private chats with bots, groups and channels they are in or banned from. */
export function chatsOf(userId) {
	return [...known.chats.values()].filter((chat) =>
		chat.type === 'Private' ? chat.user_id === userId : roleIn(chat, userId) !== null || chat.banned.includes(userId),
	);
}

export function botsIn(chat) {
	if (!chat) return [];
	if (chat.type === 'Private') return known.bots.has(chat.bot_id) ? [known.bots.get(chat.bot_id)] : [];
	return chat.members.filter((member) => member.kind === 'bot' && known.bots.has(member.id)).map((member) => known.bots.get(member.id));
}

/** Why the user cannot post here, or null when they can. */
export function postingBlock(chat, userId) {
	if (!chat) return { kind: 'none', text: 'Pick a chat.' };
	if (chat.type === 'Private') return null;
	if (chat.banned.includes(userId)) return { kind: 'banned' };
	const role = roleIn(chat, userId);
	if (!role) return { kind: 'not-member', text: `You are not a member of ${chat.title}.` };
	if (chat.type === 'Channel' && role === 'member') {
		return { kind: 'channel', text: 'Only the owner and admins post in this channel; you are a subscriber.' };
	}
	return null;
}

export function isOwn(message) {
	return message.sender_type === 'User' && message.sender_id === view.userId;
}

export function canDelete(message) {
	const chat = currentChat();
	if (isOwn(message)) return true;
	if (!chat || chat.type === 'Private') return false;
	const role = roleIn(chat, view.userId);
	return (role === 'owner' || role === 'admin') && !chat.banned.includes(view.userId);
}

export function saveLocation() {
	const url = new URL(location.href);
	url.searchParams.set('user', view.userId || '');
	url.searchParams.set('chat', view.chatId || '');
	history.replaceState(null, '', url);
	try {
		localStorage.setItem('rubika-sandbox-chat', JSON.stringify({ user: view.userId, chat: view.chatId }));
	} catch {
		// Storage may be off (private windows); the address bar still keeps the choice.
	}
}

export function savedChoice() {
	const params = new URLSearchParams(location.search);
	if (params.get('user')) return { user: params.get('user'), chat: params.get('chat') };
	try {
		return JSON.parse(localStorage.getItem('rubika-sandbox-chat') || '{}');
	} catch {
		return {};
	}
}
