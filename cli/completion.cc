// `pogi completion bash|zsh|fish`: shell completion of the subcommands.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.h"

namespace pogi::cli {
namespace {

constexpr const char* kCommands =
    "start gateway env status tables describe stop reset snapshot export import faults lag replication "
    "throttle jobs "
    "scan query get "
    "put delete "
    "tail top watch clock close-shard completion help";

}  // namespace

int Completion(const std::vector<std::string>& args) {
  std::string shell = args.size() == 1 ? args[0] : "";
  if (shell == "bash") {
    std::printf(
        "_pogi() {\n"
        "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[1]}\n"
        "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
        "    COMPREPLY=($(compgen -W \"%s\" -- \"$cur\"))\n"
        "  elif [ \"$COMP_CWORD\" -eq 2 ]; then\n"
        "    case $prev in\n"
        "      snapshot) COMPREPLY=($(compgen -W \"save restore list rm\" -- \"$cur\")) ;;\n"
        "      faults) COMPREPLY=($(compgen -W \"add list clear\" -- \"$cur\")) ;;\n"
        "      lag) COMPREPLY=($(compgen -W \"off\" -- \"$cur\")) ;;\n"
        "      replication) COMPREPLY=($(compgen -W \"lag freeze release\" -- \"$cur\")) ;;\n"
        "      throttle) COMPREPLY=($(compgen -W \"on off default\" -- \"$cur\")) ;;\n"
        "      jobs) COMPREPLY=($(compgen -W \"cancel\" -- \"$cur\")) ;;\n"
        "      completion) COMPREPLY=($(compgen -W \"bash zsh fish\" -- \"$cur\")) ;;\n"
        "    esac\n"
        "  fi\n"
        "}\n"
        "complete -F _pogi pogi\n",
        kCommands);
    return 0;
  }
  if (shell == "zsh") {
    std::printf(
        "#compdef pogi\n"
        "_pogi() {\n"
        "  if (( CURRENT == 2 )); then\n"
        "    compadd %s\n"
        "  elif (( CURRENT == 3 )); then\n"
        "    case $words[2] in\n"
        "      snapshot) compadd save restore list rm ;;\n"
        "      faults) compadd add list clear ;;\n"
        "      lag) compadd off ;;\n"
        "      replication) compadd lag freeze release ;;\n"
        "      throttle) compadd on off default ;;\n"
        "      jobs) compadd cancel ;;\n"
        "      completion) compadd bash zsh fish ;;\n"
        "    esac\n"
        "  fi\n"
        "}\n"
        "compdef _pogi pogi\n",
        kCommands);
    return 0;
  }
  if (shell == "fish") {
    std::printf("complete -c pogi -f -n '__fish_use_subcommand' -a '%s'\n", kCommands);
    std::printf("complete -c pogi -f -n '__fish_seen_subcommand_from snapshot' -a 'save restore list rm'\n");
    std::printf("complete -c pogi -f -n '__fish_seen_subcommand_from faults' -a 'add list clear'\n");
    std::printf("complete -c pogi -f -n '__fish_seen_subcommand_from lag' -a 'off'\n");
    std::printf("complete -c pogi -f -n '__fish_seen_subcommand_from replication' -a 'lag freeze release'\n");
    std::printf("complete -c pogi -f -n '__fish_seen_subcommand_from throttle' -a 'on off default'\n");
    std::printf("complete -c pogi -f -n '__fish_seen_subcommand_from jobs' -a 'cancel'\n");
    std::printf("complete -c pogi -f -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'\n");
    return 0;
  }
  std::fprintf(stderr, "pogi: completion needs bash, zsh or fish (see pogi completion --help)\n");
  return 2;
}

}  // namespace pogi::cli
