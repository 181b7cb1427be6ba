// The HTML pages the loopback listener serves to the player's browser. They state only what
// the listener knows: that a redirect arrived, not whether the token exchange will succeed.
#pragma once
#include "sdkauth/client_result.hpp"
#include "sdkauth/loopback_listener.hpp"

namespace sdkauth {
namespace pages {

// A path other than /callback (favicons, probes).
HttpReply NotFound();
// /callback with a method other than GET.
HttpReply MethodNotAllowed();
// /callback when no sign-in is waiting (it ended, or was never started).
HttpReply SignInOver();
// A redirect whose state belongs to no sign-in of this listener.
HttpReply ForeignRedirect();
// The redirect carried a code: the game has it and finishes the sign-in. Ends the listener.
HttpReply SignInReceived();
// The redirect carried an error, or no usable code; `failure` says which. Ends the listener.
HttpReply SignInFailed(const ClientResult& failure);

}  // namespace pages
}  // namespace sdkauth
