//===- StepRunner.cpp - Trace, compile, cache and run replica steps -------===//

#include "distribute/StepRunner.h"
#include "api/ExecutableImpl.h"
#include "distribute/StepCompiler.h"
#include "distribute/StepTrace.h"
#include "torus/Sharding.h"
#include "torus/Trace.h"

#include <map>
#include <set>
#include <stdexcept>

namespace torus::distribute::detail {

namespace {

std::string specKey(const std::vector<TensorSpec> &specs) {
  std::string key;
  for (const TensorSpec &s : specs)
    key += s.toString() + ";";
  return key;
}

} // namespace

absl::StatusOr<std::shared_ptr<CompiledStep>>
buildStep(const std::shared_ptr<StrategyState> &state, const std::string &name,
          const ReplicaFn &fn, const std::vector<TensorSpec> &argSpecs,
          int64_t numReplicas, bool replicaIdInput) {
  auto step = std::make_shared<CompiledStep>();
  step->numArgs = static_cast<int64_t>(argSpecs.size());
  step->replicaIdInput = replicaIdInput;
  const int64_t nArgs = step->numArgs;

  std::vector<std::shared_ptr<Variable::Impl>> used;
  std::optional<TracedFunction> traced;
  // TPUStrategy with several cores per replica: annotations inside the
  // step see that many logical devices.
  std::optional<LogicalDeviceScope> logicalDevices;
  if (state->numCoresPerReplica > 1)
    logicalDevices.emplace(state->numCoresPerReplica,
                           state->spmdXlaPartitioning);
  // Trace until the variables the function uses are all inputs: each pass
  // binds the variables found so far and gives placeholders to new ones
  // (and to variables the function creates). A pass that finds no new
  // variable and creates none is the step.
  constexpr int kMaxPasses = 4;
  for (int pass = 0; pass < kMaxPasses && !traced; ++pass) {
    StepTrace st(state, /*discover=*/true);
    st.replicaIdFromInput = replicaIdInput;
    st.order = used;
    std::vector<TensorSpec> inputSpecs = argSpecs;
    if (replicaIdInput)
      inputSpecs.push_back({DType::I32, {}});
    const int64_t varBase = static_cast<int64_t>(inputSpecs.size());
    for (const auto &v : used)
      inputSpecs.push_back(v->spec);

    std::vector<int> written;
    int64_t numUser = 0;
    auto result = trace(name, inputSpecs, [&](const std::vector<Tensor> &in) {
      StepTraceGuard guard(&st);
      std::vector<Tensor> args(in.begin(), in.begin() + nArgs);
      if (replicaIdInput)
        st.replicaIdInput = in[nArgs];
      for (size_t k = 0; k < used.size(); ++k)
        st.bindings[used[k].get()] =
            VarBinding{in[varBase + k], in[varBase + k], false};
      std::vector<Tensor> outs;
      try {
        outs = fn(args);
      } catch (const std::out_of_range &e) {
        // The vector form read past its arguments with at().
        st.fail(absl::InvalidArgumentError(
            name + "() read an argument it was not given (" +
            std::to_string(nArgs) + " given): " + e.what()));
        return outs;
      }
      numUser = static_cast<int64_t>(outs.size());
      for (size_t k = 0; k < used.size(); ++k) {
        const VarBinding &b = st.bindings[used[k].get()];
        if (b.written) {
          outs.push_back(b.current);
          written.push_back(static_cast<int>(k));
        }
      }
      return outs;
    });
    if (!st.error.ok())
      return st.error;
    bool complete = st.order.size() == used.size() && st.variablesCreated == 0;
    used = st.order;
    if (!complete)
      continue; // trace again with the new variables as inputs
    if (!result.ok())
      return result.status();
    step->written = written;
    step->numUserOutputs = numUser;
    traced.emplace(std::move(*result));
  }
  if (!traced)
    return absl::InvalidArgumentError(
        "tf.function only supports singleton tf.Variables created on the "
        "first call. Make sure the tf.Variable is only created once or "
        "created outside tf.function. See "
        "https://www.tensorflow.org/guide/function#creating_tfvariables for "
        "more information.");
  for (const auto &v : used)
    step->vars.push_back(v);

  step->outputSpecs = traced->outputs();
  TORUS_ASSIGN_OR_RETURN(CompiledProgram compiled,
                         compileStep(*traced, numReplicas));
  step->hasCollectives =
      !compiled.exe->impl().program.spec.collectives.empty();
  step->numPartitions = compiled.numPartitions;
  step->inputShardings = std::move(compiled.inputShardings);
  step->outputShardings = std::move(compiled.outputShardings);
  step->exe = std::move(compiled.exe);
  return step;
}

namespace {

/// The host value replica `r` feeds for variable `v`.
absl::StatusOr<const HostTensor *> variableInput(const Variable::Impl &v,
                                                 int64_t r, int64_t replicas) {
  if (v.components.size() == 1)
    return &v.components[0];
  if (static_cast<int64_t>(v.components.size()) != replicas)
    return absl::InvalidArgumentError(
        "variable '" + v.name + "' has " +
        std::to_string(v.components.size()) +
        " components but the strategy running the step has " +
        std::to_string(replicas) +
        " replicas: it was created in another strategy's scope");
  return &v.components[r];
}

} // namespace

absl::StatusOr<std::vector<PerReplica>>
runReplicaFunction(const std::shared_ptr<StrategyState> &state,
                   FunctionImpl *cacheOwner, const ReplicaCallable &callable,
                   const Values &args, const StepExecution &execution) {
  const std::string &name = callable.name;
  const ReplicaFn &fn = callable.fn;
  if (StepTrace::current())
    return absl::FailedPreconditionError(
        "Method requires being in cross-replica context, use "
        "get_replica_context().merge_call()");
  if (callable.arity >= 0 &&
      callable.arity != static_cast<int64_t>(args.size()))
    // Python's TypeError for a call with the wrong number of arguments.
    return absl::InvalidArgumentError(
        name + "() takes " + std::to_string(callable.arity) +
        " positional argument" + (callable.arity == 1 ? "" : "s") + " but " +
        std::to_string(args.size()) +
        (args.size() == 1 ? " was given" : " were given"));
  const int64_t R = state->numReplicas;
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].isDistributed() &&
        static_cast<int64_t>(args[i].perReplica().size()) != R)
      return absl::InvalidArgumentError(
          "argument " + std::to_string(i) + " is a distributed value with " +
          std::to_string(args[i].perReplica().size()) +
          " components, but the strategy has " + std::to_string(R) +
          " replicas");
  std::set<int> perStep(execution.perStepArgs.begin(),
                        execution.perStepArgs.end());

  // Each replica's argument specs; replicas with equal specs form a group.
  std::map<std::string, std::vector<int64_t>> groups;
  std::map<std::string, std::vector<TensorSpec>> groupSpecs;
  for (int64_t r = 0; r < R; ++r) {
    std::vector<TensorSpec> specs;
    for (size_t i = 0; i < args.size(); ++i) {
      TensorSpec s = args[i].select(r).spec();
      if (perStep.count(static_cast<int>(i)))
        s.shape.erase(s.shape.begin());
      specs.push_back(s);
    }
    std::string key = specKey(specs);
    groups[key].push_back(r);
    groupSpecs[key] = specs;
  }
  const bool grouped = groups.size() > 1;
  if (grouped && execution.steps > 1)
    return absl::UnimplementedError(
        "the replicas' inputs have different shapes; a multi-step run needs "
        "equal shapes on every replica");

  std::vector<std::vector<HostTensor>> outputs(R);
  // The variables written and their new components, applied after every
  // group ran (so a failure leaves variables unchanged).
  std::vector<std::pair<std::shared_ptr<Variable::Impl>,
                        std::vector<std::pair<int64_t, HostTensor>>>>
      updates;
  std::map<Variable::Impl *, size_t> updateIndex;
  int64_t numUserOutputs = -1;

  TORUS_ASSIGN_OR_RETURN(rt::Executor * executor, state->getExecutor());
  for (auto &[key, replicas] : groups) {
    const int64_t groupSize = static_cast<int64_t>(replicas.size());
    std::string cacheKey = key + "|replicas=" + std::to_string(groupSize) +
                           (grouped ? "|grouped" : "") + "|steps=" +
                           std::to_string(execution.steps);
    std::shared_ptr<CompiledStep> step;
    if (cacheOwner) {
      std::lock_guard<std::mutex> lock(cacheOwner->mutex);
      auto it = cacheOwner->cache.find(
          cacheKey + "|state=" +
          std::to_string(reinterpret_cast<uintptr_t>(state.get())));
      if (it != cacheOwner->cache.end()) {
        step = it->second;
        for (const auto &w : step->vars)
          if (w.expired())
            step = nullptr; // a variable it used is gone: retrace
      }
    }
    if (!step) {
      // One process per TPU host: the program is the whole slice's.
      const int64_t programReplicas =
          state->globalProgram && !grouped ? groupSize * state->numWorkers
                                           : groupSize;
      TORUS_ASSIGN_OR_RETURN(step, buildStep(state, name, fn, groupSpecs[key],
                                             programReplicas, grouped));
      if (cacheOwner) {
        std::lock_guard<std::mutex> lock(cacheOwner->mutex);
        cacheOwner->cache[cacheKey + "|state=" +
                          std::to_string(
                              reinterpret_cast<uintptr_t>(state.get()))] = step;
        ++cacheOwner->numCompiles;
      }
    }
    if (grouped && step->hasCollectives)
      return absl::UnimplementedError(
          "the replicas received inputs of different shapes (a partial batch "
          "split unevenly), and the step uses cross-replica collectives "
          "(all-reduce, aggregated variable updates, optimizers): one SPMD "
          "program cannot run on different shapes. Use drop_remainder=True, "
          "or keep collectives out of steps that see partial batches");
    numUserOutputs = step->numUserOutputs;

    std::vector<std::shared_ptr<Variable::Impl>> vars;
    for (const auto &w : step->vars)
      vars.push_back(w.lock());

    std::vector<std::vector<HostTensor>> inputs;
    for (int64_t r : replicas) {
      std::vector<HostTensor> in;
      for (const Value &a : args)
        in.push_back(a.select(r));
      if (step->replicaIdInput) // in sync: worker w's replicas follow
        in.push_back(HostTensor::scalar<int32_t>(
            static_cast<int32_t>(state->workerId * R + r)));
      for (const auto &v : vars) {
        TORUS_ASSIGN_OR_RETURN(const HostTensor *value, variableInput(*v, r, R));
        in.push_back(*value);
      }
      inputs.push_back(std::move(in));
    }

    rt::RunOptions options;
    const int64_t P = step->numPartitions;
    if (P > 1 && execution.steps > 1)
      return absl::UnimplementedError(
          "a multi-step run of a step partitioned over logical devices is not "
          "supported");
    if (P > 1) {
      // Device r * P + p gets the tiles its sharding gives partition p, on
      // the core of logical core p of replica r.
      std::vector<std::vector<HostTensor>> perDevice;
      for (size_t g = 0; g < replicas.size(); ++g)
        for (int64_t p = 0; p < P; ++p) {
          std::vector<HostTensor> tiles;
          for (size_t i = 0; i < inputs[g].size(); ++i) {
            TORUS_ASSIGN_OR_RETURN(
                HostTensor tile,
                shardForPartition(inputs[g][i], step->inputShardings.at(i), p,
                                  P));
            tiles.push_back(std::move(tile));
          }
          perDevice.push_back(std::move(tiles));
          options.replicaToCore.push_back(
              state->logicalCoreToCore.at(replicas[g]).at(p));
        }
      inputs = std::move(perDevice);
      options.numPartitions = P;
    } else {
      for (int64_t r : replicas)
        options.replicaToCore.push_back(state->replicaToCore[r]);
    }
    if (state->globalProgram && !grouped) {
      // This host's replicas, devices workerId * groupSize * P onwards.
      options.numLocalDevices = groupSize * P;
      options.firstDevice = state->workerId * options.numLocalDevices;
    }
    // The device-side loop: arguments fed per step, variables carried.
    options.stepsPerRun = execution.steps;
    if (execution.steps > 1) {
      options.perStepInputs = execution.perStepArgs;
      const int varBase =
          static_cast<int>(step->numArgs + (step->replicaIdInput ? 1 : 0));
      for (size_t k = 0; k < step->written.size(); ++k)
        options.carried.push_back(
            {static_cast<int>(step->numUserOutputs + k),
             varBase + step->written[k]});
    }
    auto result = executor->run(step->exe->impl().program, inputs, options);
    if (!result.ok())
      return result.status();
    if (P > 1) {
      // Join each replica's tiles into whole values.
      std::vector<std::vector<HostTensor>> whole;
      for (size_t g = 0; g < replicas.size(); ++g) {
        std::vector<HostTensor> outs;
        for (size_t o = 0; o < step->outputSpecs.size(); ++o) {
          std::vector<HostTensor> tiles;
          for (int64_t p = 0; p < P; ++p)
            tiles.push_back((*result)[g * P + p][o]);
          TORUS_ASSIGN_OR_RETURN(HostTensor t,
                                 unshard(tiles, step->outputShardings.at(o),
                                         step->outputSpecs[o].shape));
          outs.push_back(std::move(t));
        }
        whole.push_back(std::move(outs));
      }
      *result = std::move(whole);
    }

    for (size_t g = 0; g < replicas.size(); ++g) {
      int64_t r = replicas[g];
      std::vector<HostTensor> &out = (*result)[g];
      outputs[r].assign(std::make_move_iterator(out.begin()),
                        std::make_move_iterator(out.begin() +
                                                step->numUserOutputs));
      for (size_t k = 0; k < step->written.size(); ++k) {
        const auto &var = vars[step->written[k]];
        auto [it, inserted] = updateIndex.try_emplace(var.get(), updates.size());
        if (inserted)
          updates.push_back({var, {}});
        updates[it->second].second.push_back(
            {r, std::move(out[step->numUserOutputs + k])});
      }
    }
  }

  // Store the variables' new values: one component per replica, or replica
  // 0's value (all replicas computed the same aggregated update) for a
  // single-copy variable.
  for (auto &[var, values] : updates) {
    if (var->components.size() == 1) {
      for (auto &[r, value] : values)
        if (r == 0 || values.size() == 1) {
          var->components[0] = std::move(value);
          break;
        }
    } else {
      for (auto &[r, value] : values)
        var->components[r] = std::move(value);
    }
  }

  std::vector<PerReplica> perReplica;
  for (int64_t o = 0; o < numUserOutputs; ++o) {
    std::vector<HostTensor> values;
    for (int64_t r = 0; r < R; ++r)
      values.push_back(std::move(outputs[r][o]));
    perReplica.emplace_back(std::move(values));
  }
  return perReplica;
}

} // namespace torus::distribute::detail
