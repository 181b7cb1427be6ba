#include "pages.hpp"

#include <string>

#include "text.hpp"

namespace sdkauth {
namespace pages {
namespace {

const char kPageStyle[] =
    "<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;"
    "padding:0 1rem;color:#222}h1{font-size:1.4rem}</style>";

const char kReturnToGame[] = "You can close this tab and return to the game.";

// `title` and `text` are the project's own words or sanitized: they hold no markup.
HttpReply Page(int status, const std::string& title, const std::string& text, bool finish) {
  HttpReply reply;
  reply.status = status;
  reply.body = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + title +
               "</title>" + kPageStyle + "</head><body><h1>" + title + "</h1><p>" + text +
               "</p></body></html>\n";
  reply.finish = finish;
  return reply;
}

}  // namespace

HttpReply NotFound() { return Page(404, "Not found", "Nothing here.", false); }

HttpReply MethodNotAllowed() {
  return Page(405, "Not allowed", "The sign-in callback accepts GET only.", false);
}

HttpReply SignInOver() {
  return Page(404, "Sign-in is over",
              "No sign-in is waiting for this page. Start it again from the game.", false);
}

HttpReply ForeignRedirect() {
  return Page(400, "This link does not belong to this sign-in",
              "Start the sign-in again from the game.", false);
}

HttpReply SignInReceived() {
  return Page(200, "Sign-in received",
              std::string("The game received your sign-in and finishes it now. ") + kReturnToGame,
              true);
}

HttpReply SignInFailed(const ClientResult& failure) {
  return Page(200, "Sign-in did not complete",
              detail::Sanitize(failure.Error() + " " + kReturnToGame, 600), true);
}

}  // namespace pages
}  // namespace sdkauth
